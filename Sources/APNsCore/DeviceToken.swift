/// A push token (an activity update token, a push-to-start token or a device token) as lowercase hex.
/// Apple does not promise a length, so any non-empty, even-length hex string is accepted.
public struct DeviceToken: Sendable, Hashable, Codable, CustomStringConvertible {
    public let hex: String

    public enum ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case notHex(position: Int, character: Character)
        case oddLength(Int)

        public var description: String {
            switch self {
            case .empty:
                return "push token is empty; expected the token's bytes as hexadecimal"
            case .notHex(let position, let character):
                return "push token has '\(character)' at position \(position); only hexadecimal digits 0-9, a-f are accepted"
            case .oddLength(let count):
                return "push token has \(count) hex digits; a token is whole bytes, so the count must be even"
            }
        }
    }

    /// Validates and normalizes to lowercase. Surrounding whitespace and `<`, `>` and inner spaces
    /// (as `Data.description` once printed tokens) are not accepted: pass the plain hex string.
    public init(hex: String) throws(ValidationError) {
        guard !hex.isEmpty else { throw .empty }
        var position = 0
        for character in hex {
            guard character.isHexDigit, character.isASCII else {
                throw .notHex(position: position, character: character)
            }
            position += 1
        }
        guard position % 2 == 0 else { throw .oddLength(position) }
        self.hex = hex.lowercased()
    }

    /// Makes a token from raw bytes.
    public init(bytes: some Sequence<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        self.hex = String(decoding: out, as: UTF8.self)
    }

    /// The token shortened for logs: first and last 4 digits.
    public var shortened: String { Self.shorten(hex) }

    public var description: String { shortened }

    /// Shortens any token-like string for logs, never printing it whole.
    public static func shorten(_ token: String) -> String {
        guard token.count > 12 else { return String(repeating: "*", count: token.count) }
        return "\(token.prefix(4))…\(token.suffix(4))"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        do {
            try self.init(hex: raw)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
