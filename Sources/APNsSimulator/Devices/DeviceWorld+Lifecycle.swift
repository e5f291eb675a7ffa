import Foundation
import LiveActivity

extension DeviceWorld {
    /// Applies the system limits to one activity up to `now` and publishes any lifecycle change.
    func settle(activityID: String, at now: Date) {
        guard var activity = activities[activityID] else { return }
        activity.settle(at: now, rules: rules)
        activities[activityID] = activity
        announce(activityID: activityID, at: now)
    }

    /// Settles every activity (before reads).
    func settleAll(at now: Date) {
        for id in activities.keys.sorted() { settle(activityID: id, at: now) }
    }

    /// Publishes the lifecycle transitions of an activity since the last announced state.
    func announce(activityID: String, at now: Date) {
        guard let activity = activities[activityID] else { return }
        let current = activity.lifecycle(at: now)
        let previous = activity.announced
        guard current != previous else { return }
        activities[activityID]?.announced = current
        let data = lifecycleData(activity, state: current)
        switch current {
        case .active:
            break
        case .stale:
            publish(.activityStale, data: data, at: activity.staleDate ?? now)
        case .ended:
            publish(.activityEnded, data: data, at: activity.endedAt ?? now)
        case .dismissed:
            if previous != .ended {
                publish(.activityEnded, data: lifecycleData(activity, state: .ended), at: activity.endedAt ?? now)
            }
            publish(.activityDismissed, data: data, at: activity.dismissalDate ?? now)
        }
    }

    private func lifecycleData(_ activity: SimulatedActivity, state: ActivityLifecycle) -> JSONValue {
        var object: [String: JSONValue] = [
            "activityId": .string(activity.id),
            "deviceId": .string(activity.deviceID),
            "bundleId": .string(activity.bundleID),
            "state": .string(state.rawValue),
        ]
        if let cause = activity.endCause { object["endedBy"] = .string(cause.rawValue) }
        if let endedAt = activity.endedAt { object["endedAt"] = SimulatorJSON.tree(endedAt) }
        if let dismissal = activity.dismissalDate { object["dismissalDate"] = SimulatorJSON.tree(dismissal) }
        if let stale = activity.staleDate { object["staleDate"] = SimulatorJSON.tree(stale) }
        return .object(object)
    }
}
