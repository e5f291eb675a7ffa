/// The `aps.alert` of a Live Activity push: what the Lock Screen banner or expanded Dynamic Island shows.
/// As in Apple's Live Activity samples, `sound` is encoded inside `alert`.
public struct LiveActivityAlert: Sendable, Hashable {
    /// The sound to play with the alert.
    public enum Sound: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The system sound (`"default"`).
        case `default`
        /// A sound file in the app bundle, such as `"HeroDown.mp4"`.
        case file(String)

        /// `"default"` becomes `.default`; anything else is a file name.
        public init(_ value: String) {
            self = value == "default" ? .default : .file(value)
        }

        public init(stringLiteral value: String) { self.init(value) }

        /// The string sent in `alert.sound`.
        public var name: String {
            switch self {
            case .default: return "default"
            case .file(let name): return name
            }
        }

        public var description: String { name }
    }

    public var title: AlertText?
    public var body: AlertText?
    /// Sent as `alert.sound`, as Apple's Live Activity samples do.
    public var sound: Sound?

    public init(title: AlertText? = nil, body: AlertText? = nil, sound: Sound? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }

    /// The JSON form of `aps.alert`.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [:]
        if let title { object["title"] = title.jsonValue }
        if let body { object["body"] = body.jsonValue }
        if let sound { object["sound"] = .string(sound.name) }
        return .object(object)
    }
}
