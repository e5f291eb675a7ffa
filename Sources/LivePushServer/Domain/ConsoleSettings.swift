/// The settings `ConsoleService` reads.
struct ConsoleSettings: Sendable {
    /// This process's name among the instances holding outbox and group-send leases.
    var instanceID: String
    /// How many delivery records an activity's view returns.
    var historyLimit: Int
    /// Priority-10 pushes per activity per hour before updates are downgraded to priority 5.
    var hourlyPriority10Budget: Int
    /// The same for activities whose app reported `frequentPushesEnabled`.
    var frequentHourlyPriority10Budget: Int

    /// The hourly priority-10 budget of an activity.
    func priority10Budget(frequentPushesEnabled: Bool) -> Int {
        frequentPushesEnabled ? frequentHourlyPriority10Budget : hourlyPriority10Budget
    }
}
