import Foundation

/// A source of the current time that tests can replace. Used for provider token renewal, Live
/// Activity limits and timestamps.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system's wall clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to, for tests.
public final class ManualWallClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = start }

    public func now() -> Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    public func set(_ date: Date) { lock.withLock { current = date } }
}
