import APNsCore
import Foundation
import PushStore

/// The priority-10 budget, decided in one place for every send path (single sends, batches, group pages):
/// what each activity may spend in an hour, and what a push is sent at once its activity's budget has
/// decided.
struct PriorityBudgetRule: Sendable {
    /// Priority-10 pushes per activity and hour.
    var hourly: Int
    /// The same for an activity whose app enabled frequent updates (`NSSupportsLiveActivitiesFrequentUpdates`).
    var frequentHourly: Int

    /// The budget requests of a send asking for `requested`: one per activity at priority 10, none otherwise.
    func requests(_ requested: APNsPriority, for activities: [ActivityRecord]) -> [(activityID: String, limit: Int)] {
        guard requested == .immediate else { return [] }
        return activities.map { (activityID: $0.activityID, limit: limit(for: $0)) }
    }

    func limit(for activity: ActivityRecord) -> Int {
        activity.frequentPushesEnabled ? frequentHourly : hourly
    }

    /// The priority to send with: priority 10 within the activity's hourly budget, else 5 with the reason.
    static func priority(_ requested: APNsPriority, for activity: ActivityRecord, decision: BudgetDecision?) -> (APNsPriority, String?) {
        guard requested == .immediate, let decision, !decision.granted else { return (requested, nil) }
        let kind = activity.frequentPushesEnabled ? "frequent-updates budget" : "budget"
        return (
            .conservesPower, "hourly priority-10 \(kind) of \(decision.limit) used (\(decision.usedInWindow) in the last hour); sent at priority 5"
        )
    }
}

extension ServerConfiguration {
    /// The priority-10 budget as configured.
    var priorityBudget: PriorityBudgetRule {
        PriorityBudgetRule(hourly: hourlyPriority10Budget, frequentHourly: frequentHourlyPriority10Budget)
    }
}
