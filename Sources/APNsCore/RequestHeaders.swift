import Foundation

/// When APNs may stop trying to deliver a push.
public enum APNsExpiration: Sendable, Hashable {
    /// Try once; do not store (`apns-expiration: 0`).
    case immediately
    /// Store and retry until this time.
    case at(Date)
    /// Leave the header out: APNs applies its own storage policy.
    case serverDefault

    public var headerValue: String? {
        switch self {
        case .immediately: return "0"
        case .at(let date): return String(Int64(date.timeIntervalSince1970.rounded(.down)))
        case .serverDefault: return nil
        }
    }
}

/// The typed `apns-*` headers of one device push (docs/apns-protocol.md §3).
public struct APNsRequestHeaders: Sendable, Hashable {
    public var pushType: APNsPushType
    public var topic: String
    public var priority: APNsPriority?
    public var expiration: APNsExpiration
    public var collapseID: String?
    public var apnsID: UUID?

    public static let maximumCollapseIDBytes = 64

    public enum ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
        case emptyTopic
        case topicMissingSuffix(topic: String, expectedSuffix: String)
        /// A push type sent to the bare bundle id (`alert`, `background`) with another type's topic suffix.
        case topicOfAnotherPushType(topic: String, pushType: APNsPushType, topicType: APNsPushType)
        /// A topic that is not a bundle id (with a suffix): it would go into the `apns-topic` header as it is.
        case topicNotABundleID(topic: String)
        case collapseIDTooLong(bytes: Int)

        public var description: String {
            switch self {
            case .emptyTopic:
                return "apns-topic is empty; expected the app's bundle id with the push type's suffix"
            case .topicMissingSuffix(let topic, let suffix):
                return "apns-topic '\(topic)' does not end in '\(suffix)'; this push type goes to <bundle id>\(suffix)"
            case .topicOfAnotherPushType(let topic, let pushType, let topicType):
                return
                    "apns-topic '\(topic)' is a \(topicType.rawValue) topic; \(pushType.rawValue) pushes go to the bare bundle id (APNs answers BadTopic)"
            case .topicNotABundleID(let topic):
                return "apns-topic '\(topic)' is not a bundle id: dot-separated labels of letters, digits, '-' and '_' (\(APNsBundleID.pattern))"
            case .collapseIDTooLong(let bytes):
                return "apns-collapse-id is \(bytes) bytes; APNs accepts at most \(APNsRequestHeaders.maximumCollapseIDBytes)"
            }
        }
    }

    public init(
        pushType: APNsPushType,
        topic: String,
        priority: APNsPriority? = nil,
        expiration: APNsExpiration = .serverDefault,
        collapseID: String? = nil,
        apnsID: UUID? = nil
    ) throws(ValidationError) {
        guard !topic.isEmpty else { throw .emptyTopic }
        guard APNsBundleID.isValid(topic) else { throw .topicNotABundleID(topic: topic) }
        if let suffix = pushType.topicSuffix, !topic.hasSuffix(suffix) {
            throw .topicMissingSuffix(topic: topic, expectedSuffix: suffix)
        }
        if pushType.topicSuffix == nil, pushType != .mdm, let topicType = APNsPushType.suffixed(topic: topic) {
            throw .topicOfAnotherPushType(topic: topic, pushType: pushType, topicType: topicType)
        }
        if let collapseID, collapseID.utf8.count > Self.maximumCollapseIDBytes {
            throw .collapseIDTooLong(bytes: collapseID.utf8.count)
        }
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
    }

    /// Headers for a push of `pushType` to an app, with the push type's topic suffix added: for example a
    /// WidgetKit reload (`.widgets`, topic `<bundle id>.push-type.widgets`) or a control reload
    /// (`.controls`, topic `<bundle id>.push-type.controls`), docs/apns-protocol.md §3.2.
    public static func forApp(
        bundleID: String,
        pushType: APNsPushType,
        priority: APNsPriority? = nil,
        expiration: APNsExpiration = .serverDefault,
        collapseID: String? = nil,
        apnsID: UUID? = nil
    ) throws(ValidationError) -> APNsRequestHeaders {
        try APNsRequestHeaders(
            pushType: pushType, topic: pushType.topic(forBundleID: bundleID), priority: priority,
            expiration: expiration, collapseID: collapseID, apnsID: apnsID)
    }

    /// Headers for a Live Activity push to an app, with the topic suffix added.
    public static func liveActivity(
        bundleID: String,
        priority: APNsPriority = .immediate,
        expiration: APNsExpiration = .serverDefault,
        collapseID: String? = nil,
        apnsID: UUID? = nil
    ) throws(ValidationError) -> APNsRequestHeaders {
        try APNsRequestHeaders(
            pushType: .liveactivity,
            topic: APNsPushType.liveactivity.topic(forBundleID: bundleID),
            priority: priority,
            expiration: expiration,
            collapseID: collapseID,
            apnsID: apnsID
        )
    }

    /// The header fields in the order they are sent, names lowercase, without `authorization`.
    public var fields: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = [
            ("apns-push-type", pushType.rawValue),
            ("apns-topic", topic),
        ]
        if let priority { out.append(("apns-priority", String(priority.rawValue))) }
        if let value = expiration.headerValue { out.append(("apns-expiration", value)) }
        if let collapseID { out.append(("apns-collapse-id", collapseID)) }
        if let apnsID { out.append(("apns-id", apnsID.lowercased)) }
        return out
    }
}
