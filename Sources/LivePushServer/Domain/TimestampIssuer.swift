import APNsCore
import Foundation
import Synchronization

/// Issues each activity strictly increasing whole-second timestamps: the wall clock, or one second after
/// the newest one already issued or stored. A device keeps only a newer timestamp, so pushes to one
/// activity apply in the order they were accepted even when retries deliver them out of order.
final class TimestampIssuer: Sendable {
    /// The newest timestamp issued per key; pruned of past ones when it grows beyond `pruneAt` entries.
    private let state = Mutex<(issued: [String: Date], pruneAt: Int)>(([:], TimestampIssuer.pruneThreshold))
    private static let pruneThreshold = 10_000

    /// The rule of every push to an activity (single sends, batches, ends, group pages): the device keeps
    /// only a newer timestamp, so a push carries `proposed`, or one second after the activity's `newest`
    /// when that is not older.
    static func timestamp(_ proposed: Date, after newest: Date?) -> Date {
        guard let newest, newest >= proposed else { return proposed }
        return newest.addingTimeInterval(1)
    }

    /// The timestamp for a push to `key` accepted at `now`, never older than `stored` + 1 s.
    func next(for key: String, now: Date, stored: Date?) -> Date {
        let wholeNow = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return state.withLock { state in
            let newest = [state.issued[key], stored].compactMap { $0 }.max().map {
                Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down))
            }
            let timestamp = Self.timestamp(wholeNow, after: newest)
            state.issued[key] = timestamp
            if state.issued.count > state.pruneAt {
                state.issued = state.issued.filter { $0.value >= wholeNow }
                // Entries issued this second stay: prune again only after as many more, so that a group send
                // to many thousands of activities does not filter the whole dictionary for each one.
                state.pruneAt = max(Self.pruneThreshold, 2 * state.issued.count)
            }
            return timestamp
        }
    }
}
