import Foundation

/// What APNs answered to one request.
public struct APNsResponse: Sendable, Hashable {
    public var status: Int
    /// `apns-id`, as APNs returned it (APNs-generated ids are uppercase).
    public var apnsID: String?
    /// `apns-unique-id` (development environment only), for the Push Notifications Console's delivery log.
    public var apnsUniqueID: String?
    /// The typed reason of an error answer.
    public var reason: APNsReason?
    /// For 410: when APNs confirmed the token stopped being valid for the topic.
    public var timestamp: Date?

    public init(status: Int, apnsID: String? = nil, apnsUniqueID: String? = nil, reason: APNsReason? = nil, timestamp: Date? = nil) {
        self.status = status
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.reason = reason
        self.timestamp = timestamp
    }

    public var isSuccess: Bool { status == 200 }
}

/// The JSON body of an APNs error answer: `{"reason": "...", "timestamp": <ms since 1970>}`.
public struct APNsErrorBody: Sendable, Hashable, Codable {
    public var reason: String
    /// Milliseconds since 1970, only on 410.
    public var timestamp: Int64?

    public init(reason: String, timestamp: Int64? = nil) {
        self.reason = reason
        self.timestamp = timestamp
    }

    public init(reason: APNsReason, timestamp: Date? = nil) {
        self.reason = reason.rawValue
        self.timestamp = timestamp.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) }
    }

    public var date: Date? {
        timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Parses an error body; nil when it is not APNs' JSON shape.
    public static func parse(_ bytes: some Collection<UInt8>) -> APNsErrorBody? {
        try? JSONDecoder().decode(APNsErrorBody.self, from: Data(bytes))
    }
}
