import Foundation

/// An APNs token as ActivityKit hands it over (`pushToken`, `pushTokenUpdates`, `pushToStartToken`):
/// kept and sent as lowercase hex. Logs show only ``shortened``.
public struct PushToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token in lowercase hex, as the server takes it.
    public let hex: String

    /// The token ActivityKit gave as bytes.
    public init(_ data: Data) {
        hex = data.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }

    /// A token already in hex (a simulated device's); nil unless it is a non-empty, even number of hex digits.
    public init?(hex: String) {
        guard !hex.isEmpty, hex.count.isMultiple(of: 2), hex.allSatisfy(\.isHexDigit) else { return nil }
        self.hex = hex.lowercased()
    }

    /// The first and last 4 hex digits, as the server shows a token (stars for a token too short to
    /// shorten): safe for a log line.
    public var shortened: String {
        hex.count > 12 ? "\(hex.prefix(4))…\(hex.suffix(4))" : String(repeating: "*", count: hex.count)
    }

    public var description: String { shortened }
}
