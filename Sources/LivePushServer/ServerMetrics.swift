import APNsCore
import Metrics
import Prometheus
import PushStore

/// The server's metrics, recorded through swift-metrics. By default they go to a Prometheus registry of
/// this server's own, which `/metrics` renders; tests can pass another factory (e.g. `TestMetrics`).
/// No `MetricsSystem.bootstrap` is needed for them, so several servers can run in one process.
package final class ServerMetrics: Sendable {
    /// The registry `/metrics` renders; ``bootstrapMetricsSystem()`` adds the swift-metrics of the other
    /// modules to it.
    package let registry: PrometheusCollectorRegistry
    /// Where the server's metrics are recorded.
    let factory: any MetricsFactory
    /// Time from acceptance of a push to its final outcome.
    private let latency: Metrics.Timer
    /// Pushes waiting in the outbox, claimed or not.
    private let outboxDepth: Metrics.Gauge
    /// Priority-10 pushes sent at priority 5 because the activity's hourly budget was used up.
    private let downgrades: Metrics.Counter
    /// Routine updates replaced by a newer one before they were sent.
    private let coalesced: Metrics.Counter
    /// Pushes written to the outbox.
    private let accepted: Metrics.Counter
    /// Webhook events the webhook answered 2xx.
    private let webhookDelivered: Metrics.Counter
    /// Webhook POSTs that failed (no answer, or not 2xx); the event is retried.
    private let webhookFailedAttempts: Metrics.Counter
    /// Webhook events given up on: not delivered within their maximum age.
    private let webhookDropped: Metrics.Counter
    /// Webhook events waiting, claimed or not.
    private let webhookDepth: Metrics.Gauge
    /// Webhook POSTs not made: the host resolved to a loopback, private, link-local or metadata address.
    private let webhookRefusedTargets: Metrics.Counter
    /// Claims on an outbox batch or group page extended because their pushes were still being sent.
    private let claimRenewals: Metrics.Counter
    /// Claims found taken over by another worker while their pushes were still being sent (their lease
    /// had ended).
    private let claimsLost: Metrics.Counter

    static let latencyLabel = "livepush_server_push_latency_seconds"
    static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60), .seconds(300),
    ]

    /// `factory`: where the metrics go; nil: a `PrometheusMetricsFactory` over `registry`, with the push
    /// latency histogram's buckets.
    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), factory: (any MetricsFactory)? = nil) {
        self.registry = registry
        let factory = factory ?? Self.prometheusFactory(registry)
        self.factory = factory
        latency = Metrics.Timer(label: Self.latencyLabel, preferredDisplayUnit: .seconds, factory: factory)
        outboxDepth = Metrics.Gauge(label: "livepush_server_outbox_depth", factory: factory)
        downgrades = Metrics.Counter(label: "livepush_server_budget_downgrades_total", factory: factory)
        coalesced = Metrics.Counter(label: "livepush_server_coalesced_updates_total", factory: factory)
        accepted = Metrics.Counter(label: "livepush_server_accepted_pushes_total", factory: factory)
        webhookDelivered = Metrics.Counter(label: "livepush_server_webhook_delivered_total", factory: factory)
        webhookFailedAttempts = Metrics.Counter(label: "livepush_server_webhook_failed_attempts_total", factory: factory)
        webhookDropped = Metrics.Counter(label: "livepush_server_webhook_dropped_total", factory: factory)
        webhookDepth = Metrics.Gauge(label: "livepush_server_webhook_depth", factory: factory)
        webhookRefusedTargets = Metrics.Counter(label: "livepush_server_webhook_refused_targets_total", factory: factory)
        claimRenewals = Metrics.Counter(label: "livepush_server_claim_renewals_total", factory: factory)
        claimsLost = Metrics.Counter(label: "livepush_server_claims_lost_total", factory: factory)
    }

    /// The Prometheus backend: swift-metrics' labels and dimensions become the metric names and labels
    /// as they are; the push latency keeps its own buckets.
    private static func prometheusFactory(_ registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[latencyLabel] = latencyBuckets
        return factory
    }

    /// Counts `count` pushes with the same final outcome (`livepush_server_pushes_total` by outcome, APNs
    /// reason and priority), in one step: a group page's, or an outbox batch's.
    func recordOutcomes(_ outcome: DeliveryOutcome, reason: String?, priority: APNsPriority, count: Int) {
        Metrics.Counter(
            label: "livepush_server_pushes_total",
            dimensions: [("outcome", outcome.rawValue), ("reason", reason ?? ""), ("priority", String(priority.rawValue))],
            factory: factory
        ).increment(by: Int64(count))
    }

    /// Records a push's latency from acceptance to its outcome.
    func recordLatency(_ latency: Duration) {
        self.latency.record(duration: max(latency, .zero))
    }

    /// Counts a request refused with 429 by a rate limit: scope `app` or `backend` (a principal's own),
    /// `installations` (shared by the installations of one app key), `address` (a client address's failed
    /// requests).
    func recordRateLimited(scope: String) {
        Metrics.Counter(label: "livepush_server_rate_limited_requests_total", dimensions: [("scope", scope)], factory: factory).increment()
    }

    func recordAccepted(_ count: Int) { accepted.increment(by: Int64(count)) }
    func recordDowngrade() { downgrades.increment() }
    func recordCoalesced(_ count: Int) { if count > 0 { coalesced.increment(by: Int64(count)) } }
    func setOutboxDepth(_ depth: Int) { outboxDepth.record(depth) }
    func recordWebhookDelivered() { webhookDelivered.increment() }
    func recordWebhookFailedAttempt() { webhookFailedAttempts.increment() }
    func recordWebhookDropped() { webhookDropped.increment() }
    func setWebhookDepth(_ depth: Int) { webhookDepth.record(depth) }
    func recordWebhookRefusedTarget() { webhookRefusedTargets.increment() }
    func recordClaimRenewal() { claimRenewals.increment() }
    func recordClaimLost() { claimsLost.increment() }

    /// Sends every other swift-metrics metric of the process (APNs client, store, provider tokens) where
    /// the server's go, so `/metrics` shows them too. Call once per process, before anything records.
    package func bootstrapMetricsSystem() {
        MetricsSystem.bootstrap(factory)
    }

    /// The Prometheus text exposition of every metric in the registry.
    package func render() -> String { registry.emitToString() }
}
