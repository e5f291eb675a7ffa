import APNsCore
import Foundation
import Synchronization

/// Token buckets, one per principal: each holds up to `burst` requests and refills at `perMinute / 60`
/// per second. Kept in memory per instance (with several instances each enforces its own share).
/// Buckets full again are dropped once more than `maximumBuckets` are held, so idle principals cost
/// nothing.
package final class TokenBuckets: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    let perSecond: Double
    let burst: Double
    let maximumBuckets: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    package init(perMinute: Int, burst: Int, maximumBuckets: Int = 100_000) {
        perSecond = Double(perMinute) / 60
        self.burst = Double(max(1, burst))
        self.maximumBuckets = maximumBuckets
    }

    /// Takes one request from `name`'s bucket at `now` (seconds on a monotonic clock): nil when allowed,
    /// else the seconds until one will be.
    package func take(_ name: String, now: Double) -> Double? {
        buckets.withLock { buckets in
            var bucket = buckets[name] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[name] = bucket
                return (1 - bucket.tokens) / perSecond
            }
            bucket.tokens -= 1
            buckets[name] = bucket
            if buckets.count > maximumBuckets { prune(&buckets, now: now) }
            return nil
        }
    }

    /// The seconds until `name`'s bucket holds a whole request at `now`; nil when it does now. Takes nothing:
    /// for limits that charge a request only once its outcome is known (failed authentications).
    package func wait(_ name: String, now: Double) -> Double? {
        buckets.withLock { buckets in
            guard let bucket = buckets[name] else { return nil }
            let tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * perSecond)
            return tokens >= 1 ? nil : (1 - tokens) / perSecond
        }
    }

    /// Gives back a request `take` allowed (another limit refused it after all), up to the burst.
    package func refund(_ name: String) {
        buckets.withLock { buckets in
            guard var bucket = buckets[name] else { return }
            bucket.tokens = min(burst, bucket.tokens + 1)
            buckets[name] = bucket
        }
    }

    /// How many buckets are held (for tests).
    package var count: Int { buckets.withLock { $0.count } }

    /// Drops the buckets that would be full by now (their principals are idle); if none are, the oldest half.
    private func prune(_ buckets: inout [String: Bucket], now: Double) {
        let full = buckets.filter { $0.value.tokens + (now - $0.value.updated) * perSecond >= burst }
        if !full.isEmpty {
            for key in full.keys { buckets[key] = nil }
            return
        }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(buckets.count / 2)
        for (key, _) in oldest { buckets[key] = nil }
    }
}
