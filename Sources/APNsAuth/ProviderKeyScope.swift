import APNsCore

/// Where Apple lets a provider key be used (docs/apns-protocol.md §5): a *team-scoped* key serves every
/// topic of its team, a *topic-specific* key only its listed topics (up to 400); both kinds are
/// restricted to one environment, except older keys, which serve both.
public struct ProviderKeyScope: Sendable, Hashable, CustomStringConvertible {
    /// The most topics Apple lets one topic-specific key hold.
    public static let maximumTopics = 400

    /// The one environment the key serves; nil: both (an older key).
    public var environment: APNsEnvironment?
    /// The topics a topic-specific key serves: bundle ids (every push type of the app) or full topics
    /// such as `<bundle id>.push-type.liveactivity`; nil: every topic of the team.
    public var topics: Set<String>?

    public init(environment: APNsEnvironment? = nil, topics: Set<String>? = nil) {
        self.environment = environment
        self.topics = topics
    }

    /// A team-scoped key of every environment: the scope of a single key configured without one.
    public static let unrestricted = ProviderKeyScope()

    /// True for a topic-specific key.
    public var isTopicSpecific: Bool { topics != nil }

    /// True when a push to `topic` in `environment` may be signed with the key. `environment` nil (an
    /// endpoint that is not Apple's, like the simulator) matches any key's environment.
    public func covers(topic: String, environment: APNsEnvironment?) -> Bool {
        if let own = self.environment, let environment, own != environment { return false }
        guard let topics else { return true }
        if topics.contains(topic) { return true }
        return topics.contains(Self.bundleID(ofTopic: topic))
    }

    /// The bundle id a topic belongs to: the topic without its push type's suffix.
    public static func bundleID(ofTopic topic: String) -> String {
        guard let type = APNsPushType.suffixed(topic: topic), let suffix = type.topicSuffix else { return topic }
        return String(topic.dropLast(suffix.count))
    }

    public var description: String {
        let environmentText = environment?.rawValue ?? "both environments"
        guard let topics else { return "team-scoped, \(environmentText)" }
        return "topics \(topics.sorted().joined(separator: ", ")), \(environmentText)"
    }
}
