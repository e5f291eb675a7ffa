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

/// An injected fault: applies to a share of requests, globally or for one token.
public struct FaultRule: Sendable, Hashable, Codable {
    /// Answer with this status and reason instead of processing the request.
    public var status: Int?
    public var reason: String?
    /// The share of matching requests the fault applies to, 0...1.
    public var share: Double
    /// Delay the answer by this many milliseconds.
    public var latencyMilliseconds: Int?
    /// Send GOAWAY after this many streams on each connection.
    public var goAwayAfterStreams: Int?
    /// Close the TCP connection abruptly (no GOAWAY) instead of answering.
    public var resetConnection: Bool?
    /// Only for requests to this token (nil: every request).
    public var token: String?

    public init(
        status: Int? = nil, reason: String? = nil, share: Double = 1, latencyMilliseconds: Int? = nil,
        goAwayAfterStreams: Int? = nil, resetConnection: Bool? = nil, token: String? = nil
    ) {
        self.status = status
        self.reason = reason
        self.share = share
        self.latencyMilliseconds = latencyMilliseconds
        self.goAwayAfterStreams = goAwayAfterStreams
        self.resetConnection = resetConnection
        self.token = token
    }

    private enum CodingKeys: String, CodingKey {
        case status, reason, share, latencyMilliseconds, goAwayAfterStreams, resetConnection, token
    }

    /// Decodes a rule; `share` may be left out and then means every matching request (as `--fault-share`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decodeIfPresent(Int.self, forKey: .status),
            reason: try container.decodeIfPresent(String.self, forKey: .reason),
            share: try container.decodeIfPresent(Double.self, forKey: .share) ?? 1,
            latencyMilliseconds: try container.decodeIfPresent(Int.self, forKey: .latencyMilliseconds),
            goAwayAfterStreams: try container.decodeIfPresent(Int.self, forKey: .goAwayAfterStreams),
            resetConnection: try container.decodeIfPresent(Bool.self, forKey: .resetConnection),
            token: try container.decodeIfPresent(String.self, forKey: .token)
        )
    }
}
