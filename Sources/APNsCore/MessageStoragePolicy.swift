/// A broadcast channel's `message-storage-policy` (docs/apns-protocol.md §10.1), fixed when the
/// channel is created.
public enum APNsMessageStoragePolicy: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// 0: nothing is stored; a device that is offline misses the message. Allows a higher publishing
    /// rate. Broadcasts to such a channel must send `apns-expiration: 0`.
    case noStorage = 0
    /// 1: APNs keeps the most recent message (at most 8 hours, or until its expiration) and delivers it
    /// to devices that come online or subscribe later.
    case mostRecentMessage = 1

    /// How long a stored message is kept at most.
    public static let maximumStorageSeconds: Double = 8 * 3600

    public var description: String {
        switch self {
        case .noStorage: return "0 (no storage)"
        case .mostRecentMessage: return "1 (most recent message)"
        }
    }
}
