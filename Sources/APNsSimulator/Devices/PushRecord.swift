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

/// One push as a device's history keeps it: the request, APNs' answer and what the device did. The request
/// and the answer are one shared instance (``PushRequestRecord``): every subscriber of a broadcast keeps
/// a reference to it and only its own outcome.
public struct PushRecord: Sendable, Hashable, Codable {
    // The request's fields (``PushRequestRecord``) and these share one JSON object; the names stay as the
    // API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case outcome
        case deviceID = "deviceId"
        case activityID = "activityId"
    }

    /// The request and APNs' answer, shared with every other receiver of the same push.
    let request: PushRequestRecord
    public var outcome: DeviceOutcome
    public var deviceID: String?
    public var activityID: String?

    public var apnsID: String { request.apnsID }
    public var receivedAt: Date { request.receivedAt }
    public var token: String { request.token }
    public var priority: Int { request.priority }
    public var headers: [HeaderField] { request.headers }
    public var payload: JSONValue { request.payload }
    /// APNs' answer: 200, or the rejection.
    public var status: Int { request.status }
    public var reason: String? { request.reason }
    /// The broadcast channel it came through (nil for a push to a token, whose `token` is then empty).
    public var channelID: String? { request.channelID }

    init(request: PushRequestRecord, outcome: DeviceOutcome, deviceID: String?, activityID: String?) {
        self.request = request
        self.outcome = outcome
        self.deviceID = deviceID
        self.activityID = activityID
    }

    init(
        apnsID: String, receivedAt: Date, token: String, priority: Int, headers: [HeaderField], payload: JSONValue, status: Int,
        reason: String?, outcome: DeviceOutcome, deviceID: String?, activityID: String?, channelID: String? = nil
    ) {
        self.init(
            request: PushRequestRecord(
                apnsID: apnsID, receivedAt: receivedAt, token: token, priority: priority, headers: headers, payload: payload,
                status: status, reason: reason, channelID: channelID),
            outcome: outcome, deviceID: deviceID, activityID: activityID)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            request: try PushRequestRecord(from: decoder), outcome: try container.decode(DeviceOutcome.self, forKey: .outcome),
            deviceID: try container.decodeIfPresent(String.self, forKey: .deviceID),
            activityID: try container.decodeIfPresent(String.self, forKey: .activityID))
    }

    public func encode(to encoder: any Encoder) throws {
        try request.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(deviceID, forKey: .deviceID)
        try container.encodeIfPresent(activityID, forKey: .activityID)
    }
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
