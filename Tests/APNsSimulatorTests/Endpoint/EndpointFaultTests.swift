import APNsCore
import Foundation
import Testing

@testable import APNsSimulator

@Suite struct EndpointFaultTests {
    @Test func injectedStatusForAShare() async throws {
        try await withEndpoint { harness in
            try harness.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable"))
            try await harness.withConnection { client in
                let answer = try await client.send(harness.request(), body: EndpointHarness.payload)
                #expect(answer.status == 503)
                #expect(answer.reason == "ServiceUnavailable")
                #expect(answer["content-type"] == "application/json")
                harness.faults.removeAll()
                try harness.faults.add(FaultRule(status: 500, reason: "InternalServerError", share: 0.5))
                var statuses: [Int] = []
                for _ in 0..<40 { statuses.append(try await client.send(harness.request(), body: EndpointHarness.payload).status ?? 0) }
                #expect(statuses.contains(500))
                #expect(statuses.contains(200))
                #expect(Set(statuses).isSubset(of: [200, 500]))
            }
        }
    }

    @Test func perTokenFault() async throws {
        try await withEndpoint { harness in
            let victim = String(repeating: "cd", count: 32)
            try harness.faults.add(FaultRule(status: 410, reason: "Unregistered", token: victim.uppercased()))
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                let hit = try await client.send(harness.request(token: victim), body: EndpointHarness.payload)
                #expect(hit.status == 410)
                #expect(hit.reason == "Unregistered")
            }
        }
    }

    @Test func addedLatency() async throws {
        try await withEndpoint { harness in
            try harness.faults.add(FaultRule(latencyMilliseconds: 300))
            try await harness.withConnection { client async throws in
                let started = ContinuousClock.now
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(ContinuousClock.now - started >= .milliseconds(300))
            }
        }
    }

    @Test func goAwayAfterStreams() async throws {
        try await withEndpoint { harness in
            try harness.faults.add(FaultRule(goAwayAfterStreams: 2))
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(client.goAway == nil)
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                let goAway = try await client.waitForGoAway()
                #expect(goAway.debugData == #"{"reason":"Shutdown"}"#)
                #expect(goAway.lastStreamID == 3)
                try await client.waitForClose()
            }
            harness.faults.removeAll()
            try harness.faults.add(FaultRule(reason: "IdleTimeout", goAwayAfterStreams: 1))
            try await harness.withConnection { second async throws in
                #expect(try await second.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(try await second.waitForGoAway().debugData == #"{"reason":"IdleTimeout"}"#)
            }
        }
    }

    @Test func connectionReset() async throws {
        try await withEndpoint { harness in
            try harness.faults.add(FaultRule(resetConnection: true))
            try await harness.withConnection { client in
                let streamID = client.start(harness.request(), body: EndpointHarness.payload)
                await #expect(throws: (any Error).self) { _ = try await client.response(streamID) }
                try await client.waitForClose()
                #expect(client.goAway == nil)
            }
        }
    }
}
