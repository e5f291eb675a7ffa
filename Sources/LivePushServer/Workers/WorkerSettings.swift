import Foundation

/// The settings the background workers read: the delivery workers, the webhook and the lifecycle sweep.
struct WorkerSettings: Sendable {
    /// Names this process's outbox and webhook claims.
    var instanceID: String
    /// Delivery workers claiming from the outbox, and the items each claims at a time.
    var workerCount: Int
    var batchSize: Int
    /// How long a claim holds before another worker (or instance) may take the item over.
    var claimLease: TimeInterval
    /// How long an idle worker waits before looking at its queue again.
    var pollInterval: TimeInterval
    /// Back-off between outbox attempts.
    var outboxRetry: BackOff
    /// The priority-10 budget a group send's pages spend.
    var priorityBudget: PriorityBudgetRule
    /// The push-to-start budget per device an audience start's pages spend.
    var pushToStartBudget: PushToStartBudgetRule
    /// Where events are POSTed, signed with the secret; nil: no webhook.
    var webhookURL: URL?
    var webhookSecret: String?
    var webhookTimeout: TimeInterval
    var webhookMaximumAge: TimeInterval
    /// Back-off between webhook attempts.
    var webhookRetry: BackOff
    var webhookConcurrency: Int
    var webhookAllowPrivateTargets: Bool
    /// How often the lifecycle sweep runs, when it ends activities, when it forgets ended ones.
    var lifecycleInterval: TimeInterval
    var maximumActiveDuration: TimeInterval
    var forgetAfter: TimeInterval

    /// The seconds before the next outbox attempt of a push that has had `attempts` sends.
    func outboxRetryDelay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        outboxRetry.delay(afterAttempts: attempts, random: random)
    }

    /// The seconds before the next attempt of a webhook event that has failed `attempts` times.
    func webhookRetryDelay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        webhookRetry.delay(afterAttempts: attempts, random: random)
    }
}
