import Foundation

/// One broadcast push to a channel, ready to send (docs/apns-protocol.md §10.2):
/// `POST /4/broadcasts/apps/<bundle id>` on the device-push host, with `apns-channel-id`,
/// `apns-push-type: liveactivity`, `apns-expiration`, `apns-priority` and an optional `apns-request-id`.
/// There is no `apns-topic`.
public struct APNsBroadcastRequest: Sendable, Hashable {
    public var bundleID: String
    public var channelID: APNsChannelID
    public var priority: APNsPriority
    /// Required by APNs: `.immediately` (0) for a channel without storage, else when APNs may drop the
    /// stored message. `.serverDefault` is not allowed here.
    public var expiration: APNsExpiration
    /// `apns-request-id`, echoed back; nil lets APNs generate one.
    public var requestID: UUID?
    public var body: Data

    /// The largest broadcast body APNs accepts, in bytes.
    public static let maximumPayloadSize = 5120
    static let pathPrefix = "/4/broadcasts/apps/"

    public enum ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
        case emptyBundleID
        case bundleIDHasTopicSuffix(String)
        case bundleIDNotATopic(String)
        case missingExpiration
        case emptyPayload
        case payloadTooLarge(size: Int)

        public var description: String {
            switch self {
            case .emptyBundleID:
                return "bundle id is empty; a broadcast goes to /4/broadcasts/apps/<bundle id>"
            case .bundleIDHasTopicSuffix(let bundleID):
                return "bundle id '\(bundleID)' ends in '.push-type.liveactivity'; broadcasts take the plain bundle id "
                    + "(APNs answers TopicDisallowed)"
            case .bundleIDNotATopic(let bundleID):
                return "bundle id '\(bundleID)' is not of the form \(APNsBundleID.pattern): dot-separated labels of letters, digits, '-' and '_'"
            case .missingExpiration:
                return "apns-expiration is required on a broadcast: 0 for a channel without storage (policy 0), "
                    + "or a Unix time for a channel that stores its most recent message (policy 1)"
            case .emptyPayload:
                return "the broadcast body is empty; send {\"aps\":{…}} with event update or end"
            case .payloadTooLarge(let size):
                return "the broadcast body is \(size) bytes; APNs accepts at most \(APNsBroadcastRequest.maximumPayloadSize) "
                    + "(413 PayloadTooLarge)"
            }
        }
    }

    /// Checks the bundle id, the expiration and the body size before anything is sent.
    public init(
        bundleID: String, channelID: APNsChannelID, priority: APNsPriority = .immediate,
        expiration: APNsExpiration, requestID: UUID? = nil, body: Data
    ) throws(ValidationError) {
        try Self.checkBundleID(bundleID)
        if case .serverDefault = expiration { throw .missingExpiration }
        if body.isEmpty { throw .emptyPayload }
        if body.count > Self.maximumPayloadSize { throw .payloadTooLarge(size: body.count) }
        self.bundleID = bundleID
        self.channelID = channelID
        self.priority = priority
        self.expiration = expiration
        self.requestID = requestID
        self.body = body
    }

    /// The request path.
    public var path: String { Self.pathPrefix + APNsPath.segment(bundleID) }

    /// The header fields in the order they are sent, names lowercase, without `authorization`.
    public var fields: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = [
            ("apns-channel-id", channelID.base64),
            ("apns-push-type", APNsPushType.liveactivity.rawValue),
            ("apns-expiration", expiration.headerValue ?? "0"),
            ("apns-priority", String(priority.rawValue)),
        ]
        if let requestID { out.append(("apns-request-id", requestID.lowercased)) }
        return out
    }

    /// A plain bundle id: of the form ``APNsBundleID/pattern``, no Live Activity topic suffix.
    public static func checkBundleID(_ bundleID: String) throws(ValidationError) {
        guard !bundleID.isEmpty else { throw .emptyBundleID }
        if let suffix = APNsPushType.liveactivity.topicSuffix, bundleID.hasSuffix(suffix) {
            throw .bundleIDHasTopicSuffix(bundleID)
        }
        guard APNsBundleID.isValid(bundleID) else { throw .bundleIDNotATopic(bundleID) }
    }
}
