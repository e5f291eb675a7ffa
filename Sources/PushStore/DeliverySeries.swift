import Foundation

/// How long pushes took from acceptance to outcome, counted in buckets whose bounds grow by 10^0.1
/// (about 26 %) from 1 ms: enough to read a p50 and a p99 within a bucket's width, with ten buckets a
/// decade. Bucket `i` holds latencies below `bounds[i]` (and at or above `bounds[i - 1]`); the last
/// bucket, index `bounds.count`, holds those of `bounds.last` or more.
package struct LatencyHistogram: Sendable, Hashable {
    /// The upper bounds, in seconds: 1 ms to 10,000 s.
    package static let bounds: [TimeInterval] = (0...70).map { pow(10, Double($0) / 10 - 3) }

    /// Pushes by bucket index (only buckets that hold any).
    package var counts: [Int: Int] = [:]

    package init(counts: [Int: Int] = [:]) {
        self.counts = counts
    }

    package var total: Int { counts.values.reduce(0, +) }

    /// The bucket of a latency.
    package static func bucket(of latency: TimeInterval) -> Int {
        bounds.firstIndex { latency < $0 } ?? bounds.count
    }

    package mutating func add(bucket: Int, count: Int) {
        guard count > 0 else { return }
        counts[min(max(bucket, 0), Self.bounds.count), default: 0] += count
    }

    /// The latency below which a fraction `quantile` (0 to 1) of the pushes fall, interpolated linearly
    /// inside the bucket that holds it; nil without pushes.
    package func percentile(_ quantile: Double) -> TimeInterval? {
        let total = total
        guard total > 0 else { return nil }
        let rank = min(max(quantile, 0), 1) * Double(total)
        var below = 0
        for bucket in counts.keys.sorted() {
            let count = counts[bucket] ?? 0
            if Double(below + count) >= rank {
                let lower = bucket == 0 ? 0 : Self.bounds[bucket - 1]
                // The last bucket has no upper bound: its lower bound is all that is known.
                guard bucket < Self.bounds.count else { return lower }
                let upper = Self.bounds[bucket]
                return lower + (upper - lower) * max(0, rank - Double(below)) / Double(count)
            }
            below += count
        }
        return Self.bounds.last
    }
}

/// One minute of the delivery history: how many pushes reached each outcome in it, and how long those
/// that were sent (every outcome but `coalesced`) took from acceptance to outcome.
package struct DeliveryMinute: Sendable, Hashable {
    /// The minute's start; it holds the outcomes recorded from then for 60 seconds.
    package var start: Date
    package var counts: [DeliveryOutcome: Int]
    package var latency: LatencyHistogram

    package init(start: Date, counts: [DeliveryOutcome: Int] = [:], latency: LatencyHistogram = LatencyHistogram()) {
        self.start = start
        self.counts = counts
        self.latency = latency
    }
}

/// The members of a group send that did not get it: those whose push failed (refused by APNs,
/// undeliverable or expired), with their history record, and those skipped when their page was sent.
package struct GroupSendMembers: Sendable, Hashable {
    /// Ordered by activity id.
    package var failed: [DeliveryRecord]
    /// Skipped members as they are stored now, ordered by activity id: members handed out, with neither
    /// a record of the send nor a push of it waiting, that are ended, dismissed or without a valid token
    /// (what made their page skip them). A member skipped for a token it has replaced since is not among them.
    package var skipped: [ActivityRecord]

    package init(failed: [DeliveryRecord], skipped: [ActivityRecord]) {
        self.failed = failed
        self.skipped = skipped
    }
}
