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
    /// The webhook's, and the lifecycle sweep's.
    var webhook: WebhookSettings
    var lifecycle: LifecycleSettings

    /// The seconds before the next outbox attempt of a push that has had `attempts` sends.
    func outboxRetryDelay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        outboxRetry.delay(afterAttempts: attempts, random: random)
    }
}

/// What the webhook worker reads.
struct WebhookSettings: Sendable {
    /// Where events are POSTed, signed with the secret; nil: no webhook.
    var url: URL?
    var secret: String?
    /// How long one POST may take, and how long after it happened an event may still be delivered.
    var timeout: TimeInterval
    var maximumAge: TimeInterval
    /// Back-off between attempts.
    var retry: BackOff
    /// POSTs in flight at once.
    var concurrency: Int
    var allowPrivateTargets: Bool

    /// The seconds before the next attempt of a webhook event that has failed `attempts` times.
    func retryDelay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        retry.delay(afterAttempts: attempts, random: random)
    }
}

/// What the lifecycle sweep reads: how often it runs, when it ends activities, when it forgets ended ones.
struct LifecycleSettings: Sendable {
    var interval: TimeInterval
    var maximumActiveDuration: TimeInterval
    var forgetAfter: TimeInterval
}
