import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// Limits that cannot be multiplied: one budget for all the installations an app key opened, one for the
/// failed requests of a client address (checked before any credential is looked up), and a cap on the
/// connections open at once.
@Suite struct SharedLimitTests {
    /// Installations are opened freely with the app key: a burst through many of them is held to the
    /// budget they share, while each keeps its own, and another app key's installations have theirs.
    @Test func aBurstThroughManyInstallationsIsHeldToOneBudget() async throws {
        try await withServer(
            ServerOptions(sender: FakeSender()) {
                $0.allowBurst(8, for: .app)
                $0.allowBurst(10, for: .installation)
                $0.addressFailureLimit = 0
            }
        ) { harness in
            let http = harness.http
            var appKeys: [String] = []
            for name in ["shipped", "other"] {
                let key = APIKeys.generate(scope: .app)
                _ = try await harness.store.createAPIKey(name: name, scope: .app, sha256Hash: APIKeys.hash(key), at: Date())
                appKeys.append(key)
            }
            var tokens: [String] = []
            for _ in 0..<6 {
                let opened = try await http.post("/v1/installations", key: appKeys[0], "")
                tokens.append(try #require(opened.json?["token"]?.stringValue, "\(opened.text)"))
            }
            // 6 installations × 8 requests each would be 48 through separate buckets.
            var statuses: [Int] = []
            for token in tokens {
                for _ in 0..<8 {
                    statuses.append(try await http.post("/v1/activities/none/dismissed", key: token, "").status)
                }
            }
            let through = statuses.filter { $0 != 429 }.count
            #expect(through == 10, "the shared burst of 10, not 6 × 8: \(statuses)")
            let opened = try await http.post("/v1/installations", key: appKeys[1], "")
            let other = try #require(opened.json?["token"]?.stringValue, "\(opened.text)")
            #expect(
                try await http.post("/v1/activities/none/dismissed", key: other, "").status != 429,
                "another app key's installations have their own budget")
            let metrics = try await http.get("/metrics").text
            #expect(
                metrics.contains(#"livepush_server_rate_limited_requests_total{scope="installations"} 38"#),
                "\(metrics.split(separator: "\n").filter { $0.contains("rate_limited") })")
        }
    }

    /// Unknown keys from one address: 401 until its failure budget is spent, then 429 before any lookup.
    @Test func unknownKeysFromOneAddressAreRefusedBeforeTheirLookup() async throws {
        var options = ServerOptions(sender: FakeSender()) {
            $0.addressFailureLimit = 1
            $0.addressFailureBurst = 5
        }
        options.logLevel = .critical  // the store is closed under running workers below: their errors are expected
        try await withServer(options) { harness in
            let http = harness.http
            var statuses: [Int] = []
            for index in 0..<5 {
                statuses.append(try await http.get("/v1/activities/a", key: "lp_backend_unknown-\(index)-0123456789abcdef").status)
            }
            statuses.append(try await http.get("/v1/activities/a", key: nil).status)
            #expect(statuses == [401, 401, 401, 401, 401, 429], "\(statuses)")
            let (limited, headers) = try await http.request("POST", "/v1/activities", key: "lp_app_unknown-0123456789abcdef", body: Data("{}".utf8))
            #expect(limited.status == 429 && limited.errorRule == "addressLimit", "\(limited.text)")
            #expect(headers["retry-after"].flatMap(Int.init).map { (1...60).contains($0) } == true, "\(headers)")
            // The store is closed: a lookup would answer 503; the address is refused before any.
            await harness.store.close()
            #expect(try await http.get("/v1/activities/a", key: "lp_backend_unknown-x-0123456789abcdef").errorRule == "addressLimit")
            let metrics = try await http.get("/metrics").text
            #expect(
                metrics.contains(#"livepush_server_rate_limited_requests_total{scope="address"} 3"#),
                "\(metrics.split(separator: "\n").filter { $0.contains("rate_limited") })")
        }
    }

    /// Successful requests never spend the address's failure budget.
    @Test func authenticatedRequestsDoNotSpendTheAddressBudget() async throws {
        try await withServer(
            ServerOptions(sender: FakeSender()) {
                $0.addressFailureLimit = 1
                $0.addressFailureBurst = 2
            }
        ) { harness throws in
            for _ in 0..<10 {
                #expect(try await harness.http.get("/v1/activities/none", key: TestServer.backendKey).status == 404)
            }
            #expect(try await harness.http.get("/v1/activities/none", key: "lp_backend_unknown-0123456789abcdef").status == 401)
        }
    }

    /// Connection N+1 is closed as it is accepted; once one closes, a new one is served.
    @Test func connectionsOverTheCapAreClosed() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.maximumConnections = 3 }) { harness in
            let port = try #require(harness.server.port)
            try await Self.withAnsweredConnections(3, port: port) { held in
                let over = try await ListenerDeadlineTests.RawConnection.open(port: port)
                try? await over.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await eventually(timeout: .seconds(10)) { over.closed != nil }, "connection 4 of 3 is closed")
                #expect(over.text.isEmpty, "and not answered: \(over.text)")
                #expect(held.allSatisfy { $0.closed == nil }, "the 3 within the cap stay open")
                try await held[0].channel.close()
                _ = await eventually(timeout: .seconds(10)) { held[0].closed != nil }
                // The server counts the close when it sees it: the next connection is served soon after.
                var served = false
                for _ in 0..<50 where !served {
                    try await ListenerDeadlineTests.RawConnection.with(port: port) { next in
                        try? await next.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        _ = await pollUntil(timeout: .seconds(5)) { next.closed != nil || next.text.contains("connections_refused") }
                        served = next.text.contains("200 OK")
                        if served {
                            #expect(next.text.contains("livepush_server_connections_refused_total"), "\(next.text.suffix(500))")
                            #expect(next.text.contains("livepush_server_open_connections 3"), "\(next.text.suffix(2000))")
                        }
                    }
                }
                #expect(served, "a connection is served again once one closed")
            }
        }
    }

    /// `count` connections to `port`, each answered once before the next opens (so the server has counted
    /// it), held open for `body` and closed afterwards.
    static func withAnsweredConnections<Result>(
        _ count: Int, port: Int, holding held: [ListenerDeadlineTests.RawConnection] = [],
        _ body: ([ListenerDeadlineTests.RawConnection]) async throws -> Result
    ) async throws -> Result {
        if held.count == count { return try await body(held) }
        return try await ListenerDeadlineTests.RawConnection.with(port: port) { connection in
            try await connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await eventually(timeout: .seconds(10)) { connection.text.contains("200 OK") }, "\(connection.text)")
            return try await withAnsweredConnections(count, port: port, holding: held + [connection], body)
        }
    }
}
