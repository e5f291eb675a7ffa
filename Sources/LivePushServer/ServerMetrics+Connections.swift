import Metrics

/// The listener's connection cap (`--max-connections`): the connections open and those refused.
extension ServerMetrics {
    /// Counts an API connection closed as it was accepted because `--max-connections` were open.
    func recordConnectionRefused() {
        Metrics.Counter(label: "livepush_server_connections_refused_total", factory: factory).increment()
    }

    /// The API connections open now (at most `--max-connections`).
    func recordOpenConnections(_ count: Int) {
        Metrics.Gauge(label: "livepush_server_open_connections", factory: factory).record(count)
    }
}
