import APNsCore
import Foundation
import LiveActivity
import PushStore

/// The priority-10 budget, decided in one place for every send path (single sends, batches, group pages,
/// broadcasts):
/// what each activity may spend in an hour, and what a push is sent at once its activity's budget has
/// decided.
struct PriorityBudgetRule: Sendable {
    /// Priority-10 pushes per activity and hour.
    var hourly: Int
    /// The same for an activity whose app enabled frequent updates (`NSSupportsLiveActivitiesFrequentUpdates`).
    var frequentHourly: Int

    /// The budget requests of a send asking for `requested`: one per activity at priority 10, none otherwise.
    func requests(_ requested: APNsPriority, for activities: [ActivityRecord]) -> [(activityID: String, limit: Int)] {
        activities.compactMap { request(requested, for: $0) }
    }

    /// The budget request of a push asking for `requested`: one at priority 10, none otherwise.
    func request(_ requested: APNsPriority, for activity: ActivityRecord) -> (activityID: String, limit: Int)? {
        guard requested == .immediate else { return nil }
        return (activityID: activity.activityID, limit: limit(for: activity))
    }

    func limit(for activity: ActivityRecord) -> Int {
        activity.frequentPushesEnabled ? frequentHourly : hourly
    }

    /// A channel's budget: one that stores no message has the larger one (APNs gives such channels the
    /// higher publishing budget).
    func limit(for channel: ChannelRecord) -> Int {
        channel.storagePolicy == 0 ? frequentHourly : hourly
    }

    /// The priority to send with: priority 10 within the activity's hourly budget, else 5 with the reason.
    static func priority(_ requested: APNsPriority, for activity: ActivityRecord, decision: BudgetDecision?) -> (APNsPriority, String?) {
        priority(requested, decision: decision, budget: activity.frequentPushesEnabled ? "frequent-updates budget" : "budget")
    }

    /// The priority of a broadcast: priority 10 within the channel's hourly budget, else 5 with the reason.
    static func priority(_ requested: APNsPriority, forChannel decision: BudgetDecision?) -> (APNsPriority, String?) {
        priority(requested, decision: decision, budget: "budget of channel")
    }

    private static func priority(_ requested: APNsPriority, decision: BudgetDecision?, budget: String) -> (APNsPriority, String?) {
        guard requested == .immediate, let decision, !decision.granted else { return (requested, nil) }
        return (
            .conservesPower,
            "hourly priority-10 \(budget) of \(decision.limit) used (\(decision.usedInWindow) in the last hour); sent at priority 5"
        )
    }
}

extension OutboxItem {
    /// A push to one activity as the outbox takes it, for every path that makes one (single sends, batches,
    /// ends, group pages): at priority 10 within the activity's hourly budget (`decision`), else at 5 with
    /// the reason.
    static func push(
        to activity: ActivityRecord, kind: LiveActivityEvent, payload: Data, requestedPriority: APNsPriority, budget decision: BudgetDecision?,
        importance: PushImportance, collapseKey: String?, expiration: Date?, acceptedAt: Date, pushID: UUID = .random(), sendID: UUID? = nil
    ) -> OutboxItem {
        let (priority, downgrade) = PriorityBudgetRule.priority(requestedPriority, for: activity, decision: decision)
        return OutboxItem(
            pushID: pushID, target: .activity(id: activity.activityID), kind: kind, payload: payload, priority: priority,
            requestedPriority: requestedPriority, importance: importance, downgradeReason: downgrade, collapseKey: collapseKey,
            expiration: expiration, acceptedAt: acceptedAt, sendID: sendID)
    }
}
