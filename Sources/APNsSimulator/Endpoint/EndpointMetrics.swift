import Metrics

/// Counts the endpoint's answers by status and reason (`livepush_simulator_apns_responses_total`).
final class EndpointMetrics: Sendable {
    static let label = "livepush_simulator_apns_responses_total"
    private let counters = Locked([String: Counter]())

    func count(status: Int, reason: String?) {
        let key = reason.map { "\(status) \($0)" } ?? String(status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: Self.label,
                dimensions: [("status", String(status)), ("reason", reason ?? "")]
            )
            counters[key] = counter
            return counter
        }
        counter.increment()
    }
}
