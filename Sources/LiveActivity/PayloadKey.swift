extension LiveActivityPayload {
    /// The keys of the `aps` dictionary of a Live Activity push, with their JSON spelling as raw value.
    public enum Key: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case timestamp
        case event
        case contentState = "content-state"
        case staleDate = "stale-date"
        case dismissalDate = "dismissal-date"
        case relevanceScore = "relevance-score"
        case alert
        case attributesType = "attributes-type"
        case attributes
        case inputPushToken = "input-push-token"
        case inputPushChannel = "input-push-channel"

        public var description: String { rawValue }
    }
}
