import Foundation

/// Counts events within a sliding time window (for the per-token request limit and the hourly budget).
struct SlidingWindowCounter: Sendable {
    private var times: [Date] = []

    /// The number of recorded events in `(now - window, now]`, after forgetting older ones.
    mutating func count(within window: TimeInterval, at now: Date) -> Int {
        let cutoff = now.addingTimeInterval(-window)
        if let firstKept = times.firstIndex(where: { $0 > cutoff }) {
            times.removeFirst(firstKept)
        } else {
            times.removeAll()
        }
        return times.count
    }

    mutating func record(_ date: Date) { times.append(date) }
}
