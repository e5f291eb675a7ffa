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
        // Byte by byte (tokens are read back from stores by the thousand); only an error counts characters,
        // so it names the character a person typed and its position.
        var hasUppercase = false
        for byte in hex.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "F"): hasUppercase = true
            default:
                let bad = hex.firstIndex { !($0.isASCII && $0.isHexDigit) } ?? hex.startIndex
                throw .notHex(position: hex.distance(from: hex.startIndex, to: bad), character: hex[bad])
            }
        }
        let count = hex.utf8.count
        guard count % 2 == 0 else { throw .oddLength(count) }
        self.hex = hasUppercase ? hex.lowercased() : hex
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
