import APNsSimulator
import LiveActivity
import LivePushKit

/// The simulator's device events, turned into the calls ActivityKit's sequences make the adapter do.
extension SimulatedActivityAdapter {
    func handle(_ event: SimulatorEvent) async {
        guard event.data["deviceId"]?.stringValue == deviceID else { return }
        switch event.kind {
        case .tokenIssued, .tokenRotated:
            await handleToken(event.data)
        case .activityEnded:
            guard let activity = await followedActivity(event.data) else { return }
            await sink.activityEnded(activityID: activity.activityID, .ended(dismissalDate: nil))
        case .activityDismissed:
            guard let activity = await followedActivity(event.data) else { return }
            await sink.activityEnded(activityID: activity.activityID, .dismissed)
        default:
            break
        }
    }

    /// `pushTokenUpdates` of an activity of the type, or `pushToStartTokenUpdates` of the app.
    private func handleToken(_ data: JSONValue) async {
        guard let hex = data["token"]?.stringValue else { return }
        switch data["kind"]?.stringValue {
        case "pushToken":
            guard data["attributesType"]?.stringValue == attributesType, let activity = await followedActivity(data) else { return }
            await reportToken(hex, of: activity)
        case "pushToStartToken":
            guard pushToStart == .streamAndProperty, data["bundleId"]?.stringValue == bundleID, let token = PushToken(hex: hex) else { return }
            await sink.pushToStartToken(token, attributesType: attributesType, source: .stream)
        default:
            break
        }
    }

    /// The event's activity, when it is one of the app's of the type.
    private func followedActivity(_ data: JSONValue) async -> ActivitySnapshot? {
        guard let id = data["activityId"]?.stringValue, let activity = try? await world.activity(id: id), follows(activity) else { return nil }
        return activity
    }
}
