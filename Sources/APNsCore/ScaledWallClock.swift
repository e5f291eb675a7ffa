import Foundation
import Synchronization

/// A clock that runs `rate` times as fast as its base clock and can be moved forward: the simulator's
/// clock (`livepush simulator --clock-rate 60`), so that a person can watch hours of a Live Activity's
/// life (stale, ended at 8 hours, dismissed at 12) pass in minutes. It starts at the base clock's time
/// and never runs backwards: the lifecycle rules assume time only moves on.
public final class ScaledWallClock: WallClock, Sendable {
    /// The base time and the scaled time at the last change of rate or offset.
    private struct Anchor {
        var base: Date
        var scaled: Date
        var rate: ClockRate
    }

    private let base: any WallClock
    private let anchor: Mutex<Anchor>

    /// A clock at the base clock's current time, running at `rate`.
    public init(rate: ClockRate = .realTime, base: any WallClock = SystemWallClock()) {
        let start = base.now()
        self.base = base
        self.anchor = Mutex(Anchor(base: start, scaled: start, rate: rate))
    }

    public func now() -> Date {
        let baseNow = base.now()
        return anchor.withLock { Self.scaled(baseNow, from: $0) }
    }

    /// The current time and rate, read together.
    public func reading() -> ClockReading {
        let baseNow = base.now()
        return anchor.withLock { ClockReading(now: Self.scaled(baseNow, from: $0), rate: $0.rate) }
    }

    /// Runs at `rate` from now on; the time reached so far is kept.
    public func setRate(_ rate: ClockRate) {
        let baseNow = base.now()
        anchor.withLock { anchor in
            anchor = Anchor(base: baseNow, scaled: Self.scaled(baseNow, from: anchor), rate: rate)
        }
    }

    /// Moves the clock forward at once.
    public func advance(by step: ClockStep) {
        let baseNow = base.now()
        anchor.withLock { anchor in
            anchor = Anchor(base: baseNow, scaled: Self.scaled(baseNow, from: anchor) + step.seconds, rate: anchor.rate)
        }
    }

    private static func scaled(_ baseNow: Date, from anchor: Anchor) -> Date {
        // A base clock set back (NTP) holds the scaled clock still instead of moving it backwards.
        let elapsed = max(0, baseNow.timeIntervalSince(anchor.base))
        return anchor.scaled.addingTimeInterval(elapsed * anchor.rate.value)
    }
}

/// What a ``ScaledWallClock`` reads: its time and its rate.
public struct ClockReading: Sendable, Hashable {
    public var now: Date
    public var rate: ClockRate
}

/// Simulated seconds per real second, within ``allowed``.
public struct ClockRate: Sendable, Hashable, CustomStringConvertible {
    /// From a thousandth of real time to a day per second.
    public static let allowed: ClosedRange<Double> = 0.001...86_400
    /// Real time.
    public static let realTime = ClockRate(checked: 1)

    public let value: Double

    /// A rate; outside ``allowed`` (or not a number) it is refused, naming the range.
    public init(_ value: Double) throws(ClockSettingError) {
        guard value.isFinite, Self.allowed.contains(value) else { throw .rateOutOfRange(value) }
        self.value = value
    }

    private init(checked value: Double) { self.value = value }

    public var description: String { value == value.rounded() ? String(Int(value)) : String(value) }
}

/// How far to move a ``ScaledWallClock`` forward: more than 0 seconds, at most ``maximumSeconds``.
public struct ClockStep: Sendable, Hashable {
    /// A year: far beyond every Live Activity limit.
    public static let maximumSeconds: TimeInterval = 366 * 86_400

    public let seconds: TimeInterval

    public init(seconds: TimeInterval) throws(ClockSettingError) {
        guard seconds.isFinite, seconds > 0, seconds <= Self.maximumSeconds else { throw .stepOutOfRange(seconds) }
        self.seconds = seconds
    }
}

/// A clock setting refused, with the rule it broke.
public enum ClockSettingError: Error, Sendable, Hashable, CustomStringConvertible {
    case rateOutOfRange(Double)
    case stepOutOfRange(TimeInterval)

    public var description: String {
        switch self {
        case .rateOutOfRange(let value):
            return
                "clock rate \(value) is outside \(ClockRate.allowed.lowerBound)...\(Int(ClockRate.allowed.upperBound)) (simulated seconds per real second; 1 is real time)"
        case .stepOutOfRange(let seconds):
            return
                "a clock advance of \(seconds) seconds is outside 0 (exclusive)...\(Int(ClockStep.maximumSeconds)); the clock only moves forward"
        }
    }
}
