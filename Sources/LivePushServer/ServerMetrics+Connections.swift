import Prometheus

/// The listener's connection cap (`--max-connections`): the connections open and those refused.
extension ServerMetrics {
    func recordConnectionRefused() {
        registry.makeCounter(descriptor: MetricNameDescriptor(
            namespace: "livepush", subsystem: "server", metricName: "connections_refused", unitName: "total",
            helpText: "API connections closed as they were accepted because --max-connections were open.")).increment()
    }

    func recordOpenConnections(_ count: Int) {
        registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "livepush", subsystem: "server", metricName: "open_connections", unitName: "",
            helpText: "API connections open now (at most --max-connections).")).set(Double(count))
    }
}
