import Foundation

/// The settings `PushService` (and the renewals sending through it) reads.
struct PushSettings: Sendable {
    /// A push without an `expiration` is retried (and stored by APNs) this long after acceptance.
    var defaultExpiration: TimeInterval
    /// How long an ended activity stays on the Lock Screen when no dismissal date was given.
    var defaultDismissalDelay: TimeInterval
    /// The delivery workers a group send wakes.
    var workerCount: Int
    /// The priority-10 budget of each activity and channel.
    var priorityBudget: PriorityBudgetRule
    /// The push-to-start budget per device of the starts the server makes on its own (renewals, resources).
    var pushToStartBudget: PushToStartBudgetRule
}
