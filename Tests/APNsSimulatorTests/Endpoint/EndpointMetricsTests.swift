import Foundation
import MetricsTestKit
import Testing

@testable import APNsSimulator

@Suite struct EndpointMetricsTests {
    @Test func answersAreCountedByStatusAndReason() async throws {
        let metrics = TestMetrics()
        try await withEndpoint(metricsFactory: metrics) { harness async throws in
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(try await client.send(harness.request(replacing: ["apns-topic": nil]), body: EndpointHarness.payload).status == 400)
            }
        }
        let label = "livepush_simulator_apns_responses_total"
        let accepted = try metrics.expectCounter(label, [("status", "200"), ("reason", "")])
        #expect(accepted.totalValue == 2)
        let missingTopic = try metrics.expectCounter(label, [("status", "400"), ("reason", "MissingTopic")])
        #expect(missingTopic.totalValue == 1)
    }
}
