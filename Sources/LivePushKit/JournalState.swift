import Foundation
import LiveActivity

/// Everything the reporter keeps for one app, as written to its journal: for each activity and each
/// push-to-start attributes type, what the app knows and what the server has acknowledged. The difference
/// between the two is the work still to send, so a relaunch picks it up, and a newer token simply
/// replaces an older one that was never sent.
struct JournalState: Codable, Sendable, Equatable {
    /// The device's id for push-to-start tokens, made once per installation of the app.
    var deviceID: String
    /// The installation this app opened (installation credential), kept until it is renewed or refused.
    var installation: StoredInstallation?
    var authorization = ActivityAuthorization(activitiesEnabled: true, frequentPushesEnabled: false)
    var activities: [String: ActivityEntry] = [:]
    /// By attributes type.
    var pushToStart: [String: PushToStartEntry] = [:]
    /// Stamps every change, so that work goes out in the order it arrived.
    var sequence: UInt64 = 0
    /// Each attributes type's ContentState shape (JSON Schema), sent with its activities' registrations.
    /// Optional: journals written before shapes were kept have none.
    var contentStateShapes: [String: JSONValue]?

    init(deviceID: String) {
        self.deviceID = deviceID
    }

    mutating func nextSequence() -> UInt64 {
        sequence += 1
        return sequence
    }
}

/// An installation as the server answered `POST /v1/installations` (or its renewal).
struct StoredInstallation: Codable, Sendable, Equatable {
    var installationID: String
    var token: String
    var expiresAt: Date
}

/// One activity: its newest token and end, and what the server acknowledged of them.
struct ActivityEntry: Codable, Sendable, Equatable {
    var activityID: String
    var attributesType: String
    var groups: [String]
    /// The key of the server's Live Activity resource whose start began it (its attributes' `livePushKey`).
    var liveActivityKey: String?
    /// The newest update token the app saw.
    var token: PushToken?
    /// What the server stored: the token and the `frequentPushesEnabled` it was registered with.
    var acknowledged: Registered?
    /// A token the server refused for good (a 4xx): not sent again; a newer token is.
    var refusedToken: PushToken?
    var end: ActivityEnd?
    var acknowledgedEnd: ActivityEnd?
    /// The sequence of the newest change not yet acknowledged.
    var changedAt: UInt64

    struct Registered: Codable, Sendable, Equatable {
        var token: PushToken
        var frequentPushesEnabled: Bool
    }
}

/// One attributes type's push-to-start token, and the one the server stored.
struct PushToStartEntry: Codable, Sendable, Equatable {
    var attributesType: String
    var token: PushToken
    var source: PushToStartSource
    var acknowledgedToken: PushToken?
    var refusedToken: PushToken?
    var changedAt: UInt64
}
