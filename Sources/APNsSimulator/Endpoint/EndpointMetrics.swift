import APNsCore
import Metrics
import Synchronization

/// Counts the endpoint's answers by status and reason (`livepush_simulator_apns_responses_total`).
final class EndpointMetrics: Sendable {
    static let label = "livepush_simulator_apns_responses_total"
    private let factory: any MetricsFactory
    private let counters = Mutex([String: Counter]())
    /// The common case, without a lookup.
    private let accepted: Counter

    init(factory: any MetricsFactory) {
        self.factory = factory
        accepted = Counter(label: Self.label, dimensions: [("status", "200"), ("reason", "")], factory: factory)
    }

    func count(status: Int, reason: String?) {
        if status == 200, reason == nil {
            accepted.increment()
            return
        }
        let key = reason.map { "\(status) \($0)" } ?? String(status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: Self.label,
                dimensions: [("status", String(status)), ("reason", reason ?? "")],
                factory: factory
            )
            counters[key] = counter
            return counter
        }
        counter.increment()
    }
}
