import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LivePushTesting
import Testing

/// `APNsClient.deliver(batch:)` against the simulator, over real sockets: a page in, its outcomes out in
/// order, with the retries, per-request deadlines and GOAWAY recovery of single pushes.
@Suite struct BatchDeliveryTests {
    /// `count` updates, each to its own token (from `first`), with its own text and apns-id.
    private static func page(_ count: Int, first: Int = 1) throws -> [APNsRequest] {
        try (0..<count).map { index in
            var request = try Rangers.update(token: String(format: "%08x", first + index), health: 1, text: "page #\(index)")
            request.headers.apnsID = UUID()
            return request
        }
    }

    private static func failures(_ outcomes: [APNsDeliveryOutcome]) -> [String] {
        outcomes.filter { !$0.isAccepted }.map { "\($0.result)" }
    }

    @Test func aPageComesBackInItsOrderAndEachRequestArrivesAsSent() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let requests = try Self.page(60)
            let outcomes = try await apns.withClient(apns.clientConfiguration(maximumConnections: 1)) { client in
                await client.deliver(batch: requests)
            }
            #expect(outcomes.count == requests.count)
            #expect(Self.failures(outcomes).isEmpty, "\(Self.failures(outcomes))")
            for (request, outcome) in zip(requests, outcomes) {
                #expect(outcome.response?.apnsID?.lowercased() == request.headers.apnsID?.uuidString.lowercased())
                #expect(outcome.attempts == 1)
            }
            let log = await apns.simulator.world.pushes(limit: 1_000)
            #expect(log.count == requests.count)
            let received = Dictionary(log.map { ($0.apnsID.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            for (index, request) in requests.enumerated() {
                let entry = received[request.headers.apnsID!.uuidString.lowercased()]
                #expect(entry?.token == request.token.hex, "request \(index) went to its own token")
                #expect(entry?.payload["aps"]?["content-state"]?["eventDescription"] == .string("page #\(index)"))
            }
        }
    }

    /// Two connections of four streams each, and a simulator that holds every answer back: a page of eight
    /// reaches it whole, four on each connection, before any answer. Sent over one connection, the second
    /// four would wait for a free stream until the held answers came.
    @Test func aPageIsSpreadOverTheConnectionsByTheirFreeStreams() async throws {
        let options = Rangers.simulator(acceptUnknownTokens: true) {
            $0.endpoint.initialMaxConcurrentStreams = 4
            $0.endpoint.maxConcurrentStreams = 4
        }
        try await withSimulator(options) { apns in
            try await apns.withClient(apns.clientConfiguration(maximumConnections: 2, retry: .none)) { client in
                // Pages over one connection's four streams ask for the second connection.
                var warmUp: [APNsDeliveryOutcome] = []
                for round in 0..<3 { warmUp += await client.deliver(batch: try Self.page(8, first: 100 + 8 * round)) }
                #expect(Self.failures(warmUp).isEmpty, "\(Self.failures(warmUp))")
                await eventually { client.openConnectionCount == 2 }
                let held = try apns.simulator.faults.add(FaultRule(share: 1, latencyMilliseconds: FaultRuleError.maximumLatencyMilliseconds))
                let page = try Self.page(8, first: 200)
                async let outcomes = client.deliver(batch: page)
                await eventually { apns.simulator.faults.applications(of: held) == 8 }
                #expect(client.openedConnectionCount == 2)
                // The held answers would come after ten minutes: the simulator's shutdown ends them.
                await apns.simulator.shutdown()
                #expect(await outcomes.count == 8)
            }
        }
    }

    /// The server allows a thousand streams; the client keeps to two per connection of its own: with both
    /// held, the third request of the page reaches APNs only after one of them was answered. Without the
    /// client's limit it would go at once, a second before them.
    @Test func aConnectionKeepsToTheClientsOwnStreamLimit() async throws {
        let options = Rangers.simulator(acceptUnknownTokens: true) {
            $0.endpoint.initialMaxConcurrentStreams = 1_000
            $0.endpoint.maxConcurrentStreams = 1_000
        }
        try await withSimulator(options) { apns in
            let requests = try Self.page(3)
            for held in requests[0...1] {
                _ = try apns.simulator.faults.add(FaultRule(share: 1, latencyMilliseconds: 1_000, token: held.token.hex))
            }
            var configuration = apns.clientConfiguration(maximumConnections: 1, retry: .none)
            configuration.maximumStreamsPerConnection = 2
            let outcomes = try await apns.withClient(configuration) { client in await client.deliver(batch: requests) }
            #expect(Self.failures(outcomes).isEmpty, "\(Self.failures(outcomes))")
            let log = await apns.simulator.world.pushes(limit: 100)
            let received = Dictionary(log.map { ($0.token ?? "", $0.receivedAt) }, uniquingKeysWith: { first, _ in first })
            let firstHeld = try #require(requests[0...1].compactMap { received[$0.token.hex] }.min())
            let third = try #require(received[requests[2].token.hex])
            #expect(third >= firstHeld, "the third request waited for a free stream")
        }
    }

    /// The server allows a thousand streams on one connection; with the client's limit of four, pages of
    /// eight open the second connection and are spread over both.
    @Test func pagesAreSpreadByTheClientsOwnStreamLimit() async throws {
        let options = Rangers.simulator(acceptUnknownTokens: true) {
            $0.endpoint.initialMaxConcurrentStreams = 1_000
            $0.endpoint.maxConcurrentStreams = 1_000
        }
        try await withSimulator(options) { apns in
            var configuration = apns.clientConfiguration(maximumConnections: 2, retry: .none)
            configuration.maximumStreamsPerConnection = 4
            try await apns.withClient(configuration) { client in
                var outcomes: [APNsDeliveryOutcome] = []
                for round in 0..<3 { outcomes += await client.deliver(batch: try Self.page(8, first: 300 + 8 * round)) }
                #expect(Self.failures(outcomes).isEmpty, "\(Self.failures(outcomes))")
                await eventually { client.openConnectionCount == 2 }
            }
        }
    }

    @Test func answersThePolicyRetriesGoAgainAfterTheirBackOff() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true) { $0.faultSeed = 42 }) { apns in
            _ = try apns.simulator.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 0.3))
            let retry = APNsRetryPolicy(maximumAttempts: 12, baseDelay: 0.005, maximumDelay: 0.02)
            let outcomes = try await apns.withClient(apns.clientConfiguration(retry: retry)) { client in
                await client.deliver(batch: try Self.page(40))
            }
            #expect(Self.failures(outcomes).isEmpty, "\(Self.failures(outcomes))")
            #expect(outcomes.contains { $0.attempts > 1 }, "some pushes met a 503 and went again")
            let sent = outcomes.reduce(0) { $0 + $1.attempts }
            #expect(await apns.simulator.world.pushes(limit: 1_000).count == sent, "every attempt reached APNs once")
        }
    }

    @Test func theReconnectOnlyPolicyLeavesA503ToTheCaller() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 1))
            let outcomes = try await apns.withClient(apns.clientConfiguration(retry: .reconnectOnly())) { client in
                await client.deliver(batch: try Self.page(10))
            }
            #expect(outcomes.allSatisfy { $0.attempts == 1 && $0.reason == .serviceUnavailable }, "\(outcomes.map { "\($0.result)" })")
            #expect(await apns.simulator.world.pushes(limit: 100).count == 10, "exactly one request per push reached APNs")
        }
    }

    /// One push of the page never gets an answer: it alone times out, on its own deadline.
    @Test func eachRequestOfAPageHasItsOwnDeadline() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let requests = try Self.page(10)
            _ = try apns.simulator.faults.add(FaultRule(share: 1, latencyMilliseconds: 30_000, token: requests[3].token.hex))
            // Room for a machine busy with the rest of the suite to answer the others; the slow one never makes it.
            let configuration = apns.clientConfiguration(requestTimeout: .seconds(8), retry: .none)
            let outcomes = try await apns.withClient(configuration) { client in await client.deliver(batch: requests) }
            #expect(outcomes[3].error == .timedOut(seconds: 8))
            let others = outcomes.enumerated().filter { $0.offset != 3 }.map(\.element)
            #expect(Self.failures(others).isEmpty, "\(Self.failures(others))")
        }
    }

    /// A retry is never scheduled past a push's apns-expiration: in one page, the push that expires soon
    /// stops after its first 503 while the other is tried again.
    @Test func noRetryIsScheduledPastAPushsExpiration() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 1))
            var requests = try Self.page(2)
            requests[0].headers.expiration = .at(Date().addingTimeInterval(0.2))
            let retry = APNsRetryPolicy(maximumAttempts: 2, baseDelay: 0.3, maximumDelay: 0.3, jitter: 0)
            let outcomes = try await apns.withClient(apns.clientConfiguration(retry: retry)) { client in
                await client.deliver(batch: requests)
            }
            #expect(outcomes[0].attempts == 1 && outcomes[0].reason == .serviceUnavailable)
            #expect(outcomes[1].attempts == 2 && outcomes[1].reason == .serviceUnavailable)
        }
    }

    /// Each connection answers five streams, four at a time, then says GOAWAY: a page's requests above its
    /// last stream id go again at once on another connection, and none is lost or processed twice.
    @Test func requestsAboveAGoAwaysLastStreamGoAgainOnAnotherConnection() async throws {
        let options = Rangers.simulator(acceptUnknownTokens: true) {
            $0.endpoint.initialMaxConcurrentStreams = 4
            $0.endpoint.maxConcurrentStreams = 4
        }
        try await withSimulator(options) { apns in
            _ = try apns.simulator.faults.add(FaultRule(goAwayAfterStreams: 5))
            let configuration = apns.clientConfiguration(
                maximumConnections: 2, connectTimeout: .seconds(30), requestTimeout: .seconds(30), retry: .reconnectOnly(maximumAttempts: 20))
            try await apns.withClient(configuration) { client in
                var outcomes: [APNsDeliveryOutcome] = []
                for round in 0..<3 { outcomes += await client.deliver(batch: try Self.page(20, first: 1 + 20 * round)) }
                #expect(Self.failures(outcomes).isEmpty, "\(Self.failures(outcomes))")
                #expect(outcomes.contains { $0.attempts > 1 }, "twenty requests on connections that take at most nine: some went again")
                // A connection processes at most nine: five answered, four more in flight at the GOAWAY.
                #expect(client.openedConnectionCount >= 60 / 9, "each GOAWAY moved the rest of the page to a new connection")
            }
            let accepted = await apns.simulator.world.pushes(limit: 1_000).filter { $0.status == 200 }
            #expect(accepted.count == 60 && Set(accepted.map(\.apnsID)).count == 60, "each push processed once")
        }
    }

    /// A GOAWAY while the stream limit is full and more of the page waits in swift-nio-http2's buffer: the
    /// waiting ones fail as not sent and go again on a new connection; none ends as an unknown outcome.
    @Test func aGoAwayWithPageRequestsHeldBackForTheStreamLimitLosesNone() async throws {
        let outcomes = try await Rangers.withGoAwaysUnderAFullStreamLimit { client in
            var outcomes: [APNsDeliveryOutcome] = []
            for round in 0..<3 { outcomes += await client.deliver(batch: try Self.page(8, first: 0x600 + 16 * round)) }
            return outcomes
        }
        #expect(Self.failures(outcomes).isEmpty, "\(Self.failures(outcomes))")
    }

    @Test func anExpiredProviderTokenIsRenewedOnceForTheWholePage() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let tokens = StaleFirstTokens(apns)
            let outcomes = try await apns.withClient(tokens: tokens) { client in await client.deliver(batch: try Self.page(10)) }
            #expect(Self.failures(outcomes).isEmpty, "\(Self.failures(outcomes))")
            #expect(outcomes.allSatisfy { $0.attempts == 2 })
            #expect(tokens.renewals == 1)
        }
    }

    /// A header value HTTP/2 cannot carry fails its own push, unsent; the rest of the page goes.
    @Test func aRequestThatCannotBeSentFailsAloneInItsPage() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            var requests = try Self.page(5)
            requests[2].headers.collapseID = "score\r\ninjected: 1"
            let outcomes = try await apns.withClient { client in await client.deliver(batch: requests) }
            #expect(
                outcomes[2].error
                    == .protocolError("header apns-collapse-id contains a NUL, CR or LF character, which HTTP/2 does not allow in a header value"))
            #expect(outcomes[2].attempts == 1)
            #expect(Self.failures([outcomes[0], outcomes[1], outcomes[3], outcomes[4]]).isEmpty)
            #expect(await apns.simulator.world.pushes(limit: 100).count == 4)
        }
    }

    @Test func anEmptyPageSendsNothing() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let outcomes = try await apns.withClient { client in
                let outcomes = await client.deliver(batch: [])
                #expect(client.openedConnectionCount == 0)
                return outcomes
            }
            #expect(outcomes.isEmpty)
        }
    }
}
