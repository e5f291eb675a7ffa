import Foundation

/// A broadcast channel id (docs/apns-protocol.md §10.1): the base64 string APNs returns in
/// `apns-channel-id` when a channel is created. Its length is not fixed; APNs chooses it and a
/// deleted id never comes back.
public struct APNsChannelID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let base64: String

    /// The longest id accepted here. Apple publishes no limit (an over-long id gets `BadChannelId`);
    /// this bound only keeps a mistyped argument from being sent.
    public static let maximumLength = 256

    public enum ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case tooLong(length: Int)
        case notBase64(String)

        public var description: String {
            switch self {
            case .empty:
                return "channel id is empty; expected the base64 id APNs returned when the channel was created"
            case .tooLong(let length):
                return "channel id is \(length) characters; at most \(APNsChannelID.maximumLength) are accepted"
            case .notBase64(let value):
                return "channel id '\(value)' is not base64 (letters, digits, '+', '/', '=' padding); "
                    + "pass the id exactly as APNs returned it"
            }
        }
    }

    /// Validates the standard base64 form (padding required, as `Data(base64Encoded:)` reads it).
    public init(_ base64: String) throws(ValidationError) {
        guard !base64.isEmpty else { throw .empty }
        guard base64.utf8.count <= Self.maximumLength else { throw .tooLong(length: base64.utf8.count) }
        guard Data(base64Encoded: base64) != nil else { throw .notBase64(base64) }
        self.base64 = base64
    }

    /// A new random id of `byteCount` bytes, as the simulated APNs issues them.
    public static func random(byteCount: Int = 16) -> APNsChannelID {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<max(1, byteCount)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Base64 of random bytes always validates.
        return APNsChannelID(unchecked: Data(bytes).base64EncodedString())
    }

    private init(unchecked: String) { base64 = unchecked }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }

    public var description: String { base64 }
}
