import Foundation

/// How long to wait before sending again what failed: exponential backoff with jitter on network errors
/// and 5xx, at least the server's `Retry-After` on 429. There is no last attempt: the journal keeps the
/// work, and a phone may be offline for hours.
public struct RetryPolicy: Sendable, Hashable {
    /// The wait after the first failure.
    public var initialDelay: Duration
    /// No wait is longer (but a `Retry-After` is honoured whole).
    public var maximumDelay: Duration
    /// Each further failure multiplies the wait by this.
    public var multiplier: Double
    /// The share of each wait taken off at random (0 to 1), so that many phones do not retry in step.
    public var jitter: Double

    public init(
        initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(300), multiplier: Double = 2, jitter: Double = 0.5
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The wait before attempt `failures + 1`, after `failures` failures in a row (1 or more).
    /// `random` is in 0..<1; `retryAfter` is the server's `Retry-After`, the least the wait may be.
    public func delay(afterFailures failures: Int, retryAfter: Duration? = nil, random: Double) -> Duration {
        let exponent = Double(max(failures - 1, 0))
        let full = min(Self.seconds(initialDelay) * Foundation.pow(multiplier, min(exponent, 64)), Self.seconds(maximumDelay))
        let jittered = Duration.seconds(full * (1 - jitter * random))
        guard let retryAfter else { return jittered }
        return max(jittered, retryAfter)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

}
