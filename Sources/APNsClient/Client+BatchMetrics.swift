import Metrics

extension APNsClient {
    /// The metrics of one round's attempts, as single attempts record them: each attempt's latency, and
    /// one counter step per (status, reason) of the round rather than one per push.
    func recordAttempts(_ answers: [BatchAnswer], sentAt: ContinuousClock.Instant) {
        var counts: [AttemptKey: Int] = [:]
        for answer in answers {
            let elapsed = answer.answeredAt - sentAt
            latency.recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            let key: AttemptKey =
                switch answer.result {
                case .success(let response): AttemptKey(status: response.status, reason: response.reason?.rawValue ?? "")
                case .failure(let error): AttemptKey(status: nil, reason: Self.errorKind(error))
                }
            counts[key, default: 0] += 1
        }
        for (key, count) in counts {
            Counter(label: requestCounter, dimensions: [("status", key.status.map { String($0) } ?? "error"), ("reason", key.reason)])
                .increment(by: count)
        }
    }
}

/// The dimensions of one attempt in `livepush_apns_requests_total`.
private struct AttemptKey: Hashable {
    var status: Int?
    var reason: String
}
