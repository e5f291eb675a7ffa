import APNsCore
import CoreMetrics
import Prometheus
import PushStore

/// The server's Prometheus metrics, in one registry that `/metrics` renders.
package final class ServerMetrics: Sendable {
    /// The registry; pass it to `PrometheusMetricsFactory` to add the swift-metrics of the other modules.
    package let registry: PrometheusCollectorRegistry
    private let latency: DurationHistogram
    private let outboxDepth: Prometheus.Gauge
    private let downgrades: Prometheus.Counter
    private let coalesced: Prometheus.Counter
    private let accepted: Prometheus.Counter
    private let webhookDelivered: Prometheus.Counter
    private let webhookFailedAttempts: Prometheus.Counter
    private let webhookDropped: Prometheus.Counter
    private let webhookDepth: Prometheus.Gauge
    private let webhookRefusedTargets: Prometheus.Counter
    private let claimRenewals: Prometheus.Counter
    private let claimsLost: Prometheus.Counter

    static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60), .seconds(300),
    ]

    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        latency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "livepush", subsystem: "server", metricName: "push_latency", unitName: "seconds",
                helpText: "Time from acceptance of a push to its final outcome."
            ),
            buckets: Self.latencyBuckets
        )
        outboxDepth = registry.makeGauge(descriptor: Self.name("outbox_depth", unit: "", "Pushes waiting in the outbox, claimed or not."))
        downgrades = registry.makeCounter(descriptor: Self.name(
            "budget_downgrades", "Priority-10 pushes sent at priority 5 because the activity's hourly budget was used up."))
        coalesced = registry.makeCounter(descriptor: Self.name("coalesced_updates", "Routine updates replaced by a newer one before they were sent."))
        accepted = registry.makeCounter(descriptor: Self.name("accepted_pushes", "Pushes written to the outbox."))
        webhookDelivered = registry.makeCounter(descriptor: Self.name("webhook_delivered", "Webhook events the webhook answered 2xx."))
        webhookFailedAttempts = registry.makeCounter(descriptor: Self.name(
            "webhook_failed_attempts", "Webhook POSTs that failed (no answer, or not 2xx); the event is retried."))
        webhookDropped = registry.makeCounter(descriptor: Self.name(
            "webhook_dropped", "Webhook events given up on: not delivered within their maximum age."))
        webhookDepth = registry.makeGauge(descriptor: Self.name("webhook_depth", unit: "", "Webhook events waiting, claimed or not."))
        webhookRefusedTargets = registry.makeCounter(descriptor: Self.name(
            "webhook_refused_targets", "Webhook POSTs not made: the host resolved to a loopback, private, link-local or metadata address."))
        claimRenewals = registry.makeCounter(descriptor: Self.name(
            "claim_renewals", "Claims on an outbox batch or group page extended because their pushes were still being sent."))
        claimsLost = registry.makeCounter(descriptor: Self.name(
            "claims_lost", "Claims found taken over by another worker while their pushes were still being sent (their lease had ended)."))
    }

    /// `livepush_server_<name>_<unit>` with its help text.
    private static func name(_ name: String, unit: String = "total", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "livepush", subsystem: "server", metricName: name, unitName: unit, helpText: help)
    }

    /// Counts a push's final outcome by outcome, APNs reason and priority, and its latency.
    func recordOutcome(_ outcome: DeliveryOutcome, reason: String?, priority: APNsPriority, latency: Duration) {
        recordOutcomes(outcome, reason: reason, priority: priority, count: 1)
        self.latency.record(max(latency, .zero))
    }

    /// Counts `count` pushes with the same outcome, reason and priority (a group page's, in one step).
    func recordOutcomes(_ outcome: DeliveryOutcome, reason: String?, priority: APNsPriority, count: Int) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "livepush", subsystem: "server", metricName: "pushes", unitName: "total",
                helpText: "Pushes by final outcome, APNs reason and priority."
            ),
            labels: [("outcome", outcome.rawValue), ("reason", reason ?? ""), ("priority", String(priority.rawValue))]
        ).increment(by: Int64(count))
    }

    /// Records a push's latency from acceptance to its outcome.
    func recordLatency(_ latency: Duration) {
        self.latency.record(max(latency, .zero))
    }

    /// Counts a request refused with 429 by the rate limit of its scope (`app` or `backend`).
    func recordRateLimited(scope: String) {
        registry.makeCounter(
            descriptor: Self.name("rate_limited_requests", "Requests refused with 429 by a rate limit: scope app or backend (a principal's own), installations (shared by the installations of one app key), address (a client address's failed requests)."),
            labels: [("scope", scope)]
        ).increment()
    }

    func recordAccepted(_ count: Int) { accepted.increment(by: Int64(count)) }
    func recordDowngrade() { downgrades.increment() }
    func recordCoalesced(_ count: Int) { if count > 0 { coalesced.increment(by: Int64(count)) } }
    func setOutboxDepth(_ depth: Int) { outboxDepth.set(Int64(depth)) }
    func recordWebhookDelivered() { webhookDelivered.increment() }
    func recordWebhookFailedAttempt() { webhookFailedAttempts.increment() }
    func recordWebhookDropped() { webhookDropped.increment() }
    func setWebhookDepth(_ depth: Int) { webhookDepth.set(Int64(depth)) }
    func recordWebhookRefusedTarget() { webhookRefusedTargets.increment() }
    func recordClaimRenewal() { claimRenewals.increment() }
    func recordClaimLost() { claimsLost.increment() }

    /// Sends every swift-metrics metric of the process (APNs client, store, provider tokens) to this
    /// registry, so `/metrics` shows them too. Call once per process, before anything records.
    package func bootstrapMetricsSystem() {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    }

    /// The Prometheus text exposition of every metric in the registry.
    package func render() -> String { registry.emitToString() }
}
