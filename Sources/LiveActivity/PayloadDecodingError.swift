/// Why a request body could not be read back as a Live Activity payload.
public enum PayloadDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not JSON.
    case invalidJSON(String)
    /// The body is JSON but not an object.
    case bodyNotObject(actualType: String)
    /// The body has no `aps` key.
    case missingAPS
    /// A required key is absent (`path` such as `aps.event` or `aps.alert.title.loc-key`).
    case missingField(path: String)
    /// `aps.event` is not one of start, update, end.
    case unknownEvent(String)
    /// A key holds the wrong JSON type.
    case wrongType(path: String, expected: String, actual: String)

    public var description: String {
        switch self {
        case .invalidJSON(let detail):
            return "body is not valid JSON (\(detail)); expected {\"aps\":{…}}"
        case .bodyNotObject(let type):
            return "body is a JSON \(type); expected an object {\"aps\":{…}}"
        case .missingAPS:
            return "body has no \"aps\" key; a Live Activity push is {\"aps\":{\"event\":…,\"timestamp\":…,…}}"
        case .missingField(let path):
            return "\(path) is missing"
        case .unknownEvent(let value):
            return "aps.event is '\(value)'; accepted: start, update, end"
        case .wrongType(let path, let expected, let actual):
            return "\(path) is a \(actual); expected \(expected)"
        }
    }
}
