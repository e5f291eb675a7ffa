import Foundation
import LiveActivity

/// Where a push-to-start token came from: `Activity.pushToStartTokenUpdates` (the stream) or the static
/// `Activity.pushToStartToken` property, which the adapter reads on every launch and foreground because
/// the stream does not yield on some launches.
public enum PushToStartSource: String, Sendable, Codable, Hashable {
    case stream
    case property
}

/// How an activity left: ended (it may stay on the Lock Screen until its dismissal date) or dismissed.
public enum ActivityEnd: Sendable, Codable, Hashable {
    /// ActivityKit's `.ended`; `dismissalDate` when the app knows it (the server's default otherwise).
    case ended(dismissalDate: Date?)
    /// ActivityKit's `.dismissed`: gone from the Lock Screen.
    case dismissed

    var isDismissed: Bool {
        if case .dismissed = self { return true }
        return false
    }
}

/// What the app may show Live Activities with: `ActivityAuthorizationInfo`.
public struct ActivityAuthorization: Sendable, Codable, Hashable {
    /// `areActivitiesEnabled`.
    public var activitiesEnabled: Bool
    /// `frequentPushesEnabled` (iOS 16.2): sent with every activity's registration.
    public var frequentPushesEnabled: Bool

    public init(activitiesEnabled: Bool, frequentPushesEnabled: Bool) {
        self.activitiesEnabled = activitiesEnabled
        self.frequentPushesEnabled = frequentPushesEnabled
    }
}

/// What an app's Live Activities tell LivePushKit. ActivityKit's adapter (`LivePush.track`) calls these on a
/// device; a simulated adapter calls the same ones on Linux. ``LivePushReporter`` is the implementation that
/// gets each of them to the server. Each call returns once the event is in the journal on disk.
public protocol LiveActivityEventSink: Sendable {
    /// An activity's update token: its first (from `Activity.request(… pushType: .token)` or an activity
    /// started by push) or a rotated one (`pushTokenUpdates`). The newest token of an activity wins.
    func activityToken(_ token: PushToken, activityID: String, attributesType: String, groups: [String]) async

    /// The same, with the key of the server's Live Activity resource whose push-to-start began the activity:
    /// the `livePushKey` the server puts in the start's attributes, which an app's `ActivityAttributes` may
    /// declare (`var livePushKey: String?`). The server then links the registration to that key.
    func activityToken(_ token: PushToken, activityID: String, attributesType: String, groups: [String], liveActivityKey: String?) async

    /// The device's push-to-start token for an attributes type (iOS 17.2), and where it came from.
    func pushToStartToken(_ token: PushToken, attributesType: String, source: PushToStartSource) async

    /// The activity ended or was dismissed (`activityStateUpdates`).
    func activityEnded(activityID: String, _ end: ActivityEnd) async

    /// `ActivityAuthorizationInfo` changed (or was read at launch).
    func authorization(_ authorization: ActivityAuthorization) async

    /// The shape of an attributes type's `ContentState` (``ContentStateShape/init(deriving:)``), sent with the
    /// registrations of its activities: the server then refuses, with 422, updates the device could not decode.
    func contentStateShape(_ shape: ContentStateShape, attributesType: String) async
}

extension LiveActivityEventSink {
    /// Sinks that do not send registrations need no key.
    public func activityToken(_ token: PushToken, activityID: String, attributesType: String, groups: [String], liveActivityKey: String?) async {
        await activityToken(token, activityID: activityID, attributesType: attributesType, groups: groups)
    }

    /// Sinks that do not send registrations take no shape.
    public func contentStateShape(_ shape: ContentStateShape, attributesType: String) async {}
}
