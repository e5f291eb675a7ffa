import APNsCore
import Foundation

/// Issues each activity strictly increasing whole-second timestamps: the wall clock, or one second after
/// the newest one already issued or stored. A device keeps only a newer timestamp, so pushes to one
/// activity apply in the order they were accepted even when retries deliver them out of order.
final class TimestampIssuer: Sendable {
    private let issued = Locked<[String: Date]>([:])
    private let pruneThreshold = 10_000

    /// The timestamp for a push to `key` accepted at `now`, never older than `stored` + 1 s.
    func next(for key: String, now: Date, stored: Date?) -> Date {
        let wholeNow = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return issued.withLock { issued in
            var timestamp = wholeNow
            let newest = [issued[key], stored].compactMap { $0 }.max().map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
            if let newest, newest >= timestamp { timestamp = newest.addingTimeInterval(1) }
            issued[key] = timestamp
            if issued.count > pruneThreshold {
                issued = issued.filter { $0.value >= wholeNow }
            }
            return timestamp
        }
    }
}
