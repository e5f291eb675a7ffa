import APNsCore
import Foundation

/// One header as the simulator received it.
public struct HeaderField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String
}

/// A device push that passed every APNs-level check (method, path, authentication, headers, topic,
/// payload size) and is handed to the simulated devices.
public struct ReceivedPush: Sendable, Hashable {
    /// The token from the path, lowercase hex.
    public var token: String
    /// The environment the request was sent to.
    public var environment: APNsEnvironment
    public var topic: String
    public var pushType: APNsPushType
    /// The effective priority (10 when the header is absent, as APNs does).
    public var priority: APNsPriority
    /// `apns-expiration` (nil when absent; 1970 when 0).
    public var expiration: Date?
    public var collapseID: String?
    /// The apns-id the answer carries (the request's, or a generated uppercase one).
    public var apnsID: String
    /// Every header of the request, in order, without `authorization`'s token (it is replaced by `bearer …`).
    public var headers: [HeaderField]
    public var payload: Data
    public var receivedAt: Date
    /// The team and key of the verified provider token; empty when a client certificate authenticated the push.
    public var teamID: String
    public var keyID: String
}

/// What the simulated devices answer for a push: APNs' verdict on the token.
public enum PushVerdict: Sendable, Hashable {
    /// 200. The device applies the payload afterwards (and may still drop it, as a real device does).
    case accepted
    /// Rejected for a token reason (BadDeviceToken, DeviceTokenNotForTopic, Unregistered, ExpiredToken,
    /// TooManyRequests). `invalidSince` is the 410 timestamp.
    case rejected(APNsReason, invalidSince: Date?)
}

/// One request the APNs endpoint answered, accepted or not, for the push log and the event stream.
public struct PushExchange: Sendable, Hashable {
    public var method: String
    public var path: String
    /// The token from the path, when there was one.
    public var token: String?
    public var headers: [HeaderField]
    public var payload: Data
    public var status: Int
    public var apnsID: String
    public var apnsUniqueID: String?
    public var reason: APNsReason?
    public var receivedAt: Date
    public var latencySeconds: Double
}
