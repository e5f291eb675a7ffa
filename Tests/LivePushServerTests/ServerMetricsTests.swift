import APNsCore
import MetricsTestKit
import PushStore
import Testing

@testable import LivePushServer

/// ServerMetrics records through swift-metrics: a test backend sees each metric with its dimensions, and
/// the default backend, the server's own Prometheus registry, serves the same names and labels at /metrics.
@Suite struct ServerMetricsTests {
    @Test func aPushOutcomeIsCountedByOutcomeReasonAndPriorityWithItsLatency() throws {
        let test = TestMetrics()
        let metrics = ServerMetrics(factory: test)
        metrics.recordOutcomes(.rejected, reason: "BadDeviceToken", priority: .immediate, count: 1)
        metrics.recordLatency(.milliseconds(40))
        metrics.recordOutcomes(.rejected, reason: "BadDeviceToken", priority: .immediate, count: 2)

        let pushes = try test.expectCounter(
            "livepush_server_pushes_total", [("outcome", "rejected"), ("reason", "BadDeviceToken"), ("priority", "10")])
        #expect(pushes.totalValue == 3)
        let latency = try test.expectTimer(ServerMetrics.latencyLabel)
        #expect(latency.values == [40_000_000])
    }

    @Test func thePrometheusBackendServesTheSameNamesAndLabels() {
        let metrics = ServerMetrics()
        metrics.recordOutcomes(.accepted, reason: nil, priority: .immediate, count: 1)
        metrics.recordLatency(.milliseconds(40))
        metrics.recordRateLimited(scope: "app")
        metrics.setOutboxDepth(4)
        let text = metrics.render()
        #expect(text.contains(#"livepush_server_pushes_total{outcome="accepted",reason="",priority="10"} 1"#))
        #expect(text.contains(#"livepush_server_rate_limited_requests_total{scope="app"} 1"#))
        #expect(text.contains("livepush_server_outbox_depth 4"))
        #expect(text.contains(#"livepush_server_push_latency_seconds_bucket{le="300.0"} 1"#))
        #expect(text.contains("livepush_server_claims_lost_total 0"), "created with the server, before anything records")
    }
}
