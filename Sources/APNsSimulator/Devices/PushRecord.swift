import APNsCore
import Foundation
import LiveActivity

/// What a simulated device did with a push.
public struct DeviceOutcome: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The content was applied (an update or an end).
        case applied
        /// A push-to-start created an activity.
        case started
        /// An update older than (or, by rule, equal to) the current one.
        case ignoredOlderTimestamp
        /// The content state (or attributes) would not decode; dropped although APNs said 200.
        case decodeFailure
        /// The activity had already ended.
        case ignoredAfterEnd
        /// Over the hourly priority-10 budget, or a start over the push-to-start budget; dropped.
        case throttled
        /// Dropped for another device rule (the detail says which).
        case dropped
        /// APNs rejected the push; the device never saw it.
        case notDelivered
        /// Accepted for a token no simulated device owns (`acceptUnknownTokens`).
        case noDevice
    }

    public var kind: Kind
    public var detail: String?

    public init(_ kind: Kind, _ detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail.map { "\(kind.rawValue): \($0)" } ?? kind.rawValue }
}

/// One push as a device's history keeps it: the request, APNs' answer and what the device did.
public struct PushRecord: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case apnsID = "apnsId"
        case receivedAt, token, priority, headers, payload, status, reason, outcome
        case deviceID = "deviceId"
        case activityID = "activityId"
        case channelID = "channelId"
    }

    public var apnsID: String
    public var receivedAt: Date
    public var token: String
    public var priority: Int
    public var headers: [HeaderField]
    public var payload: JSONValue
    /// APNs' answer: 200, or the rejection.
    public var status: Int
    public var reason: String?
    public var outcome: DeviceOutcome
    public var deviceID: String?
    public var activityID: String?
    /// The broadcast channel it came through (nil for a push to a token, whose `token` is then empty).
    public var channelID: String?
}

/// The lifecycle state of an activity, as `ActivityState`.
public enum ActivityLifecycle: String, Sendable, Hashable, Codable {
    case active, stale, ended, dismissed
}

/// Who ended an activity.
public enum ActivityEndCause: String, Sendable, Hashable, Codable {
    /// An `end` push.
    case push
    /// The app or the user (control API).
    case app
    /// The system, after the 8-hour active limit.
    case system
}
