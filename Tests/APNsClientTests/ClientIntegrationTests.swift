import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushTesting
import Testing

/// The client against the local simulator, over real TLS HTTP/2 sockets.
@Suite(.serialized) struct ClientIntegrationTests {
    @Test func updateReachesTheSimulatedActivityWithEveryHeader() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            let activity = try await apns.startRangersActivity()
            let apnsID = UUID()
            var request = try Rangers.update(token: activity.pushToken, health: 0.941, text: "Power Panda found a sword!")
            request.headers.apnsID = apnsID
            request.headers.collapseID = "loot"
            request.headers.expiration = .at(Date(timeIntervalSince1970: 2_000_000_000))

            let outcome = try await apns.withClient { client in await client.deliver(request) }

            let response = try #require(outcome.response)
            #expect(response.status == 200)
            #expect(response.apnsID?.lowercased() == apnsID.uuidString.lowercased())
            #expect(response.apnsUniqueID != nil, "sandbox answers carry apns-unique-id")
            #expect(outcome.attempts == 1, "\(outcome.result)")

            let shown = try await apns.snapshot(of: activity)
            #expect(shown.contentState["eventDescription"] == "Power Panda found a sword!")
            #expect(shown.contentState["currentHealthLevel"] == .number(0.941))
            let received = try #require(shown.history.last)
            let headers = Dictionary(received.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            #expect(headers["apns-push-type"] == "liveactivity")
            #expect(headers["apns-topic"] == "\(Rangers.bundleID).push-type.liveactivity")
            #expect(headers["apns-priority"] == "5")
            #expect(headers["apns-collapse-id"] == "loot")
            #expect(headers["apns-expiration"] == "2000000000")
            #expect(headers["apns-id"] == apnsID.uuidString.lowercased())
            #expect(received.payload["aps"]?["event"] == "update")
        }
    }

    /// APNs allows one stream until the first accepted request; the client must follow the server's
    /// limit as it rises and multiplex everything on one connection.
    ///
    /// 150 requests, well past the first limit of 1, each answered after 500 ms: one at a time they would
    /// need 75 s and miss their 60 s deadline, so they pass only when the client sends them side by side.
    /// The deadline is generous because in a debug build swift-nio-http2 checks its stream table on every
    /// frame (a linear scan): hundreds of streams in flight on a machine busy with the whole suite take
    /// seconds (300 with a 10 s deadline timed out once in CI).
    @Test func manyConcurrentRequestsShareOneConnection() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(latencyMilliseconds: 500))
            let count = 150
            try await apns.withClient(apns.clientConfiguration(maximumConnections: 1, requestTimeout: .seconds(60))) { client in
                let failures = await withTaskGroup(of: String?.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            let token = String(format: "%064x", index + 1)
                            do {
                                let response = try await client.send(try Rangers.update(token: token, health: 0.5, text: "Loot #\(index)"))
                                return response.status == 200 ? nil : "status \(response.status) \(response.reason?.rawValue ?? "")"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    var failures = [String]()
                    for await failure in group { if let failure { failures.append(failure) } }
                    return failures
                }
                #expect(failures.isEmpty, "\(failures.count) of \(count) failed; first: \(failures.prefix(3))")
                #expect(client.openConnectionCount == 1)
            }
            let log = await apns.simulator.world.pushes(limit: 1000)
            #expect(log.filter { $0.status == 200 }.count >= count)
        }
    }

    @Test func rejectionsComeBackTypedAndAreNotRetried() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            let request = try Rangers.update(token: String(repeating: "ab", count: 40), health: 1, text: "nobody")
            let outcome = try await apns.withClient { client in await client.deliver(request) }
            #expect(outcome.response?.status == 400)
            #expect(outcome.reason == .badDeviceToken)
            #expect(outcome.attempts == 1)
        }
    }

    /// 3,000 error answers carry about 78 KB of JSON bodies on one connection, more than the 65,535-byte
    /// connection window HTTP/2 starts with: the client must give the window back as it reads, or the
    /// server stops sending answers and every request after the first ~2,500 times out.
    @Test func answersBeyondTheFirstConnectionWindowKeepComing() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            let request = try Rangers.update(token: String(repeating: "ab", count: 40), health: 1, text: "nobody")
            let total = 3_000
            let reasons = try await apns.withClient(apns.clientConfiguration(maximumConnections: 1, requestTimeout: .seconds(10))) { client in
                let reasons = await withTaskGroup(of: String.self) { group in
                    var reasons: [String: Int] = [:]
                    for index in 0..<total {
                        if index >= 100, let reason = await group.next() { reasons[reason, default: 0] += 1 }
                        group.addTask {
                            let outcome = await client.deliver(request)
                            return outcome.reason?.rawValue ?? outcome.error.map { "\($0)" } ?? "accepted"
                        }
                    }
                    for await reason in group { reasons[reason, default: 0] += 1 }
                    return reasons
                }
                #expect(client.openConnectionCount == 1)
                return reasons
            }
            #expect(reasons == ["BadDeviceToken": total], "\(reasons)")
        }
    }

    /// A header value HTTP/2 cannot carry fails at once as a protocol error: not sent, not retried, and
    /// the connection stays usable.
    @Test func aHeaderValueWithALineBreakIsRefusedBeforeSending() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            try await apns.withClient(apns.clientConfiguration(maximumConnections: 1)) { client in
                var request = try Rangers.update(token: "abcd", health: 1, text: "split")
                request.headers.collapseID = "score\r\ninjected: 1"
                let outcome = await client.deliver(request)
                #expect(
                    outcome.error
                        == .protocolError("header apns-collapse-id contains a NUL, CR or LF character, which HTTP/2 does not allow in a header value")
                )
                #expect(outcome.attempts == 1)
                request.headers.collapseID = "score"
                #expect(await client.deliver(request).isAccepted)
                #expect(client.openConnectionCount == 1)
            }
        }
    }

    @Test func rotatedTokenGets410WithItsTimestamp() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            let activity = try await apns.startRangersActivity()
            let newToken = try await apns.simulator.world.rotateActivityToken(activityID: activity.id)
            let (stale, fresh) = try await apns.withClient { client in
                let stale = await client.deliver(try Rangers.update(token: activity.pushToken, health: 0.2, text: "to the old token"))
                let fresh = await client.deliver(try Rangers.update(token: newToken, health: 0.3, text: "to the new token"))
                return (stale, fresh)
            }
            #expect(stale.response?.status == 410)
            #expect(stale.reason == .unregistered)
            #expect(stale.response?.timestamp != nil)
            #expect(stale.reason?.invalidatesToken == true)
            #expect(stale.attempts == 1)
            #expect(fresh.isAccepted)
        }
    }

    @Test func expiredProviderTokenIsRenewedOnceAndRetried() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let tokens = StaleFirstTokens(apns)
            let outcome = try await apns.withClient(tokens: tokens) { client in
                await client.deliver(try Rangers.update(token: "abcd", health: 1, text: "renew"))
            }
            #expect(outcome.isAccepted)
            #expect(outcome.attempts == 2)
            #expect(tokens.renewals == 1)
        }
    }

    @Test func goAwayIsRecoveredOnANewConnection() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(goAwayAfterStreams: 7))
            try await apns.withClient(apns.clientConfiguration(maximumConnections: 2)) { client in
                var outcomes = [APNsDeliveryOutcome]()
                // In sequence, so every GOAWAY finds the next push still to be sent.
                for index in 0..<30 {
                    outcomes.append(await client.deliver(try Rangers.update(token: String(format: "%08x", index + 1), health: 1, text: "#\(index)")))
                }
                #expect(
                    outcomes.allSatisfy { $0.isAccepted },
                    "every push survives the GOAWAYs: \(outcomes.filter { !$0.isAccepted }.map { "\($0.result)" })")
                #expect(client.openedConnectionCount >= 30 / 7, "each GOAWAY moved the client to a new connection")
            }
        }
    }

    @Test func abruptConnectionResetsAreRetried() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true) { $0.faultSeed = 7 }) { apns in
            _ = try apns.simulator.faults.add(FaultRule(share: 0.2, resetConnection: true))
            let retry = APNsRetryPolicy(maximumAttempts: 12, baseDelay: 0.005, maximumDelay: 0.02)
            try await apns.withClient(apns.clientConfiguration(retry: retry)) { client in
                var outcomes = [APNsDeliveryOutcome]()
                for index in 0..<30 {
                    outcomes.append(await client.deliver(try Rangers.update(token: String(format: "%08x", index + 1), health: 1, text: "#\(index)")))
                }
                #expect(outcomes.allSatisfy { $0.isAccepted }, "\(outcomes.filter { !$0.isAccepted }.map { "\($0.result)" })")
                #expect(outcomes.contains { $0.attempts > 1 }, "some pushes met a reset connection and were sent again")
                #expect(client.openedConnectionCount > 1)
            }
        }
    }

    @Test func injected503sAreRetriedWithBackoff() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true) { $0.faultSeed = 42 }) { apns in
            _ = try apns.simulator.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 0.3))
            let retry = APNsRetryPolicy(maximumAttempts: 12, baseDelay: 0.005, maximumDelay: 0.02)
            let (accepted, retried) = try await apns.withClient(apns.clientConfiguration(retry: retry)) { client in
                var accepted = 0
                var retried = 0
                for index in 0..<40 {
                    let outcome = await client.deliver(try Rangers.update(token: String(format: "%08x", index + 1), health: 1, text: "#\(index)"))
                    if outcome.isAccepted { accepted += 1 }
                    if outcome.attempts > 1 { retried += 1 }
                }
                return (accepted, retried)
            }
            #expect(accepted == 40)
            #expect(retried > 0)
        }
    }

    @Test func aServerThatNeverAnswersEndsInATimeout() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(share: 1, latencyMilliseconds: 5_000))
            try await apns.withClient(apns.clientConfiguration(requestTimeout: .milliseconds(300))) { client in
                let started = ContinuousClock.now
                let request = try Rangers.update(token: "abcd", health: 1, text: "slow")
                await #expect(throws: APNsClientError.timedOut(seconds: 0.3)) {
                    _ = try await client.send(request)
                }
                #expect(ContinuousClock.now - started < .seconds(4))
            }
        }
    }

    @Test func eachRequestTimesOutOnItsOwnDeadline() async throws {
        // One timer serves every deadline of a connection: after the first request expires it must be
        // set again for the second, which was sent later and expires later.
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            _ = try apns.simulator.faults.add(FaultRule(share: 1, latencyMilliseconds: 5_000))
            try await apns.withClient(apns.clientConfiguration(requestTimeout: .milliseconds(600))) { client in
                let first = try Rangers.update(token: "abcd", health: 1, text: "first")
                let second = try Rangers.update(token: "abce", health: 1, text: "second")
                async let firstElapsed: Duration = {
                    let started = ContinuousClock.now
                    await #expect(throws: APNsClientError.timedOut(seconds: 0.6)) { _ = try await client.send(first) }
                    return ContinuousClock.now - started
                }()
                try await Task.sleep(for: .milliseconds(400))
                let secondStarted = ContinuousClock.now
                await #expect(throws: APNsClientError.timedOut(seconds: 0.6)) { _ = try await client.send(second) }
                let secondElapsed = ContinuousClock.now - secondStarted
                #expect(await firstElapsed < .seconds(3))
                #expect(secondElapsed >= .milliseconds(550), "the second request expired at the first one's deadline")
                #expect(secondElapsed < .seconds(3))
                #expect(client.openedConnectionCount == 1)
            }
        }
    }

    @Test func anUntrustedCertificateIsATLSError() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            try await apns.withClient(apns.untrustingClientConfiguration()) { client in
                let request = try Rangers.update(token: "abcd", health: 1, text: "untrusted")
                let error = try await client.failure(sending: request, ifAnswered: "the request must not succeed without trusting the simulator's CA")
                guard case .tlsFailed = error else {
                    Issue.record("expected tlsFailed, got \(error)")
                    return
                }
            }
        }
    }

    @Test func aRefusedConnectionIsAConnectError() async throws {
        // A port nobody listens on: a listener's, once it closed.
        let port = try await withSilentListener { port in port }
        let configuration = APNsClientConfiguration(endpoint: APNsEndpoint(host: "127.0.0.1", port: port), retry: .none)
        try await withAPNsClient(configuration, tokens: nil) { client in
            let request = try Rangers.update(token: "abcd", health: 1, text: "nobody home")
            let error = try await client.failure(sending: request, ifAnswered: "nothing listens there, yet the request was answered")
            guard case .connectFailed = error else {
                Issue.record("expected connectFailed, got \(error)")
                return
            }
            #expect(error.description == "cannot connect to 127.0.0.1:\(port): connection refused (is the simulator or APNs host reachable?)")
        }
    }

    @Test func aServerThatNeverCompletesTheHandshakeIsAConnectFailureThatCanBeRetried() async throws {
        // A listener that accepts the TCP connection and never says a word: no TLS, no HTTP/2 settings.
        try await withSilentListener { port in
            let configuration = APNsClientConfiguration(
                endpoint: APNsEndpoint(host: "127.0.0.1", port: port), connectTimeout: .milliseconds(300), retry: .none
            )
            try await withAPNsClient(configuration, tokens: nil) { client in
                let request = try Rangers.update(token: "abcd", health: 1, text: "silence")
                let error = try await client.failure(
                    sending: request, ifAnswered: "the server never completed the handshake, yet the request was answered")
                // The request never left: a retry cannot duplicate it (a request timeout could have).
                guard case .connectFailed(_, let detail) = error else {
                    Issue.record("expected connectFailed, got \(error)")
                    return
                }
                #expect(detail == "no TLS and HTTP/2 handshake within 0.3 s")
                #expect(error.certainlyNotProcessed && error.isRetryable)
            }
        }
    }
}
