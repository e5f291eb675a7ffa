import Foundation

/// Why a `ProviderTokenSource` could not be created.
public enum ProviderTokenSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The refresh interval (seconds) is outside 20...60 minutes.
    case refreshIntervalOutOfRange(TimeInterval)

    public var description: String {
        switch self {
        case .refreshIntervalOutOfRange(let seconds):
            let minutes = (seconds / 60 * 100).rounded() / 100
            return
                "provider token refresh interval is \(minutes) minutes; APNs requires a new token at least every 60 minutes and rejects new tokens more often than every 20, so use 20...60 minutes (default 50)"
        }
    }
}
