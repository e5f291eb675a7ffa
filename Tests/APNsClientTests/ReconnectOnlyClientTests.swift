import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LivePushTesting
import Testing

/// The reconnect-only policy against the simulator: one request per call for answers that need waiting,
/// immediate re-sends on a new connection when the connection went away under the request.
@Suite struct ReconnectOnlyClientTests {
    @Test func a503IsOneRequestAndTheCallersToRetry() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 1))
            let outcome = try await apns.withClient(apns.clientConfiguration(retry: .reconnectOnly())) { client in
                await client.deliver(try Rangers.update(token: "0000abcd", health: 1, text: "busy"))
            }
            #expect(outcome.attempts == 1)
            #expect(outcome.reason == .serviceUnavailable)
            #expect(await apns.simulator.world.pushes(limit: 10).count == 1, "exactly one request reached APNs")
        }
    }

    @Test func a429IsOneRequest() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(status: 429, reason: "TooManyRequests", share: 1))
            let outcome = try await apns.withClient(apns.clientConfiguration(retry: .reconnectOnly())) { client in
                await client.deliver(try Rangers.update(token: "0000abce", health: 1, text: "slow down"))
            }
            #expect(outcome.attempts == 1 && outcome.reason == .tooManyRequests)
            #expect(await apns.simulator.world.pushes(limit: 10).count == 1)
        }
    }

    @Test func aRequestCrossingAGoAwayGoesAgainAtOnceOnANewConnection() async throws {
        // Each connection answers one stream, then GOAWAY. A new connection allows one stream at a time
        // until its first push is accepted, so the second of two concurrent requests leaves only once the
        // first is answered: after the GOAWAY, above its last stream id. Not processed: sent again.
        let outcomes = try await Self.deliverInPairs(rounds: 4, maximumConnections: 1, goAwayAfterStreams: 1)
        Self.expectAllAccepted(outcomes)
        #expect(outcomes.allSatisfy { $0.attempts <= 3 })
        #expect(outcomes.contains { $0.attempts > 1 }, "a request crossed a GOAWAY and went again at once")
    }

    @Test func goAwaysUnderLoadLoseNoPush() async throws {
        let outcomes = try await Self.deliverInPairs(rounds: 15, maximumConnections: 2, goAwayAfterStreams: 5)
        // A GOAWAY either finds a request not yet sent (a new connection takes it), or one sent across it
        // (not processed: sent again at once); none is lost to the caller.
        Self.expectAllAccepted(outcomes)
        #expect(outcomes.allSatisfy { $0.attempts <= 3 })
    }

    /// A GOAWAY while the server's stream limit is full of requests it will still answer, and more wait in
    /// swift-nio-http2's buffer: the waiting ones must not be sent on the departing connection (a protocol
    /// error that would close it under the answers still to come). Every request is answered, or sent
    /// again at once on a new connection; none ends as an unknown outcome.
    @Test func aGoAwayWithRequestsHeldBackForTheStreamLimitLosesNone() async throws {
        let outcomes = try await Rangers.withGoAwaysUnderAFullStreamLimit { client in
            // Several rounds, each on a new connection: how the answers and the GOAWAY fall into reads varies.
            var outcomes: [APNsDeliveryOutcome] = []
            for round in 0..<5 {
                let requests = try (1...12).map {
                    try Rangers.update(token: String(format: "%08x", 0x600 + round * 16 + $0), health: 1, text: "#\($0)")
                }
                outcomes += await withTaskGroup(of: APNsDeliveryOutcome.self) { group in
                    for request in requests { group.addTask { await client.deliver(request) } }
                    return await group.reduce(into: [APNsDeliveryOutcome]()) { $0.append($1) }
                }
            }
            return outcomes
        }
        Self.expectAllAccepted(outcomes)
    }

    /// `rounds` rounds of two updates sent at once through a reconnect-only client of `maximumConnections`
    /// connections (patient timeouts: a loaded machine must not turn this into a timeout, the caller's to
    /// retry), to a simulator whose connections each end with GOAWAY after `goAwayAfterStreams` streams.
    private static func deliverInPairs(rounds: Int, maximumConnections: Int, goAwayAfterStreams: Int) async throws -> [APNsDeliveryOutcome] {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(goAwayAfterStreams: goAwayAfterStreams))
            let configuration = apns.clientConfiguration(
                maximumConnections: maximumConnections, connectTimeout: .seconds(30), requestTimeout: .seconds(30), retry: .reconnectOnly())
            return try await apns.withClient(configuration) { client in try await deliverInPairs(client, rounds: rounds) }
        }
    }

    /// Every outcome is an acceptance; the others' results are named.
    private static func expectAllAccepted(_ outcomes: [APNsDeliveryOutcome], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            outcomes.allSatisfy { $0.isAccepted }, "\(outcomes.filter { !$0.isAccepted }.map { "\($0.result)" })", sourceLocation: sourceLocation)
    }

    /// `rounds` rounds of two updates sent at once (each to its own token); every outcome.
    private static func deliverInPairs(_ client: APNsClient, rounds: Int) async throws -> [APNsDeliveryOutcome] {
        var outcomes = [APNsDeliveryOutcome]()
        for round in 0..<rounds {
            let requests = try (1...2).map { try Rangers.update(token: String(format: "%08x", round * 2 + $0), health: 1, text: "#\(round)") }
            await withTaskGroup(of: APNsDeliveryOutcome.self) { group in
                for request in requests { group.addTask { await client.deliver(request) } }
                for await outcome in group { outcomes.append(outcome) }
            }
        }
        return outcomes
    }
}
