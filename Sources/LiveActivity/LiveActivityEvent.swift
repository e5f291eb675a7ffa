/// The `aps.event` of a Live Activity push.
public enum LiveActivityEvent: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Push-to-start (iOS 17.2+): sent to the push-to-start token; needs attributes and an alert.
    case start
    /// A new content state for a running activity.
    case update
    /// Ends the activity; may carry a dismissal date.
    case end

    public var description: String { rawValue }
}
