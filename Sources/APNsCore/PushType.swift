/// The value of the `apns-push-type` header.
public enum APNsPushType: String, Sendable, Hashable, Codable, CaseIterable {
    case alert
    case background
    case location
    case voip
    case complication
    case fileprovider
    case mdm
    case liveactivity
    case pushtotalk
    case widgets
    case controls

    /// The suffix this push type adds to the bundle id to form `apns-topic` (nil when the topic is the
    /// bundle id itself, or, for `mdm`, a certificate UID).
    public var topicSuffix: String? {
        switch self {
        case .alert, .background, .mdm: return nil
        case .location: return ".location-query"
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// The largest request body APNs accepts for this push type, in bytes.
    public var maximumPayloadSize: Int {
        self == .voip ? 5120 : 4096
    }

    /// The push type whose topic suffix `topic` ends in (the longest suffix wins), nil for a bare
    /// bundle id.
    public static func suffixed(topic: String) -> APNsPushType? {
        suffixedByLength.first { topic.hasSuffix($0.topicSuffix ?? "") && topic.utf8.count > ($0.topicSuffix ?? "").utf8.count }
    }

    /// Push types with a topic suffix, longest suffix first.
    private static let suffixedByLength: [APNsPushType] =
        allCases
        .filter { $0.topicSuffix != nil }
        .sorted { ($0.topicSuffix ?? "").count > ($1.topicSuffix ?? "").count }

    /// The `apns-topic` for a bundle id and this push type.
    public func topic(forBundleID bundleID: String) -> String {
        bundleID + (topicSuffix ?? "")
    }
}
