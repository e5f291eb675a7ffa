import Foundation

/// A retry back-off: `base` doubled per attempt after the first, at most `maximum`, less up to half of it
/// (jitter, so that failures at the same moment do not retry together).
struct BackOff: Sendable, Hashable {
    var base: TimeInterval
    var maximum: TimeInterval

    /// The seconds to wait after `attempts` attempts; `random` is in 0...1 (clamped).
    func delay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        let exponent = Double(min(max(attempts - 1, 0), 30))
        let delay = min(maximum, base * pow(2, exponent))
        return delay * (1 - 0.5 * min(max(random, 0), 1))
    }
}
