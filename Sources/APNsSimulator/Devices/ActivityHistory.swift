/// An activity's pushes, oldest first, at most the device's history limit. Most activities hold one
/// entry (a broadcast's subscribers, a fan-out's members): that one is kept inline, without the array a
/// first entry would allocate (about 40 bytes per subscriber after a broadcast to 100,000); an array
/// only from the second entry on.
struct ActivityHistory: Sendable {
    private enum Storage: Sendable {
        case empty
        case one(HistoryEntry)
        case many([HistoryEntry])
    }

    private var storage = Storage.empty

    /// The entries, oldest first.
    var entries: [HistoryEntry] {
        switch storage {
        case .empty: []
        case .one(let entry): [entry]
        case .many(let entries): entries
        }
    }

    /// The newest entry.
    var last: HistoryEntry? {
        switch storage {
        case .empty: nil
        case .one(let entry): entry
        case .many(let entries): entries.last
        }
    }

    var count: Int {
        switch storage {
        case .empty: 0
        case .one: 1
        case .many(let entries): entries.count
        }
    }

    /// Adds `entry`, dropping the oldest beyond `limit`.
    mutating func append(_ entry: HistoryEntry, limit: Int) {
        guard limit > 0 else { return }
        switch storage {
        case .empty:
            storage = .one(entry)
        case .one(let first):
            storage = limit == 1 ? .one(entry) : .many([first, entry])
        case .many(var entries):
            // Taken out first, so the array stays uniquely referenced and grows in place.
            storage = .empty
            entries.append(entry)
            if entries.count > limit { entries.removeFirst(entries.count - limit) }
            storage = .many(entries)
        }
    }
}
