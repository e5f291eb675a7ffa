/// The text of an alert title or body: a plain string, or a localization key with its arguments that the
/// device looks up in the app's `Localizable.strings`.
public enum AlertText: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    case plain(String)
    /// `{"loc-key": key, "loc-args": arguments}`.
    case localized(key: String, arguments: [String])

    public init(stringLiteral value: String) { self = .plain(value) }

    /// The JSON form inside `alert`.
    public var jsonValue: JSONValue {
        switch self {
        case .plain(let text):
            return .string(text)
        case .localized(let key, let arguments):
            return .object(["loc-key": .string(key), "loc-args": .array(arguments.map(JSONValue.string))])
        }
    }

    public var description: String {
        switch self {
        case .plain(let text): return text
        case .localized(let key, let arguments): return "\(key) \(arguments)"
        }
    }
}
