/// The settings `ConsoleService` reads.
struct ConsoleSettings: Sendable {
    /// This process's name among the instances holding outbox and group-send leases.
    var instanceID: String
    /// How many delivery records an activity's view returns.
    var historyLimit: Int
    /// The priority-10 budget an activity's view shows.
    var priorityBudget: PriorityBudgetRule
}
