import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// `--metrics-key`: `/metrics` behind a bearer credential, the rest of the operations routes as before.
@Suite struct MetricsAccessTests {
    static let key = "metrics-key-0123456789abcdef0123456789"

    @Test func withAKeyMetricsNeedItAndHealthStaysPublic() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.metricsKey = Self.key }) { server in
            for wrong in [nil, "metrics-key-0123456789abcdef012345678X", TestServer.backendKey] {
                let (refused, headers) = try await server.http.request("GET", "/metrics", key: wrong, body: nil)
                #expect(refused.status == 401)
                #expect(refused.json?["error"]?["rule"]?.stringValue == "metricsKey")
                #expect(refused.json?["error"]?["field"]?.stringValue == "Authorization")
                #expect(!refused.text.contains("livepush_"), "no metric leaks into the refusal")
                #expect(headers.first { $0.key.lowercased() == "www-authenticate" }?.value == #"Bearer realm="livepush metrics""#)
            }
            let (lowercase, _) = try await server.http.request(
                "GET", "/metrics", body: nil, headers: ["Authorization": "bearer \(Self.key)"])
            #expect(lowercase.status == 200)
            let metrics = try await server.http.get("/metrics", key: Self.key)
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("livepush_server_outbox_depth"))
            #expect(try await server.http.get("/health", key: nil).status == 200)
        }
    }

    /// `--metrics-operator`: an operator key (the console's credential) opens `/metrics`; no other key
    /// does, nor a revoked operator key. With `--metrics-key` as well, either credential opens it.
    @Test func withTheOperatorSettingAnOperatorKeyOpensMetrics() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.metricsOperator = true }) { server in
            let stored = APIKeys.generate(scope: .operator)
            let record = try await server.store.createAPIKey(name: "prometheus", scope: .operator, sha256Hash: APIKeys.hash(stored), at: Date())
            for key in [stored, TestServer.operatorKey] {
                let metrics = try await server.http.get("/metrics", key: key)
                #expect(metrics.status == 200 && metrics.text.contains("livepush_server_outbox_depth"))
            }
            for wrong in [nil, TestServer.backendKey, TestServer.appKey, Self.key, stored + "x"] {
                let refused = try await server.http.get("/metrics", key: wrong)
                #expect(refused.status == 401 && refused.errorRule == "operatorKey" && refused.errorField == "Authorization", "\(refused.text)")
                #expect(!refused.text.contains("livepush_"), "no metric leaks into the refusal")
            }
            _ = try await server.store.revokeAPIKey(id: record.id, at: Date())
            #expect(try await server.http.get("/metrics", key: stored).status == 401, "a revoked operator key no longer opens it")
            #expect(try await server.http.get("/health", key: nil).status == 200)
        }
        try await withServer(
            ServerOptions(sender: FakeSender()) {
                $0.metricsOperator = true
                $0.metricsKey = Self.key
            }
        ) { server in
            #expect(try await server.http.get("/metrics", key: Self.key).status == 200)
            #expect(try await server.http.get("/metrics", key: TestServer.operatorKey).status == 200)
            let refused = try await server.http.get("/metrics", key: TestServer.backendKey)
            #expect(refused.status == 401 && refused.errorRule == "metricsCredential", "\(refused.text)")
        }
    }

    /// Every spelling of the path that the router sends to `/metrics` (a slash more before, after or in
    /// between), and those it does not (case, percent-encoding), over a raw connection so that nothing
    /// rewrites the path on the way: none answers the Prometheus text without the credential.
    @Test func everySpellingOfTheMetricsPathNeedsTheCredential() async throws {
        try await withServer(
            ServerOptions(sender: FakeSender()) {
                $0.metricsKey = Self.key
                $0.metricsOperator = true
            }
        ) { harness in
            let spellings = [
                "/metrics", "/metrics/", "//metrics", "/metrics//", "///metrics///", "/METRICS", "/Metrics/", "/%6Detrics", "/metrics%2F",
                "/%2Fmetrics", "/metrics?x=1", "/metrics/?", "/./metrics", "/x/../metrics",
            ]
            for path in spellings {
                for method in ["GET", "HEAD"] {
                    let answer = try await Self.raw(harness, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    #expect(!answer.contains("livepush_"), "\(method) \(path) leaked metrics: \(answer.prefix(200))")
                    let status = answer.split(separator: "\r\n").first.map(String.init) ?? ""
                    #expect(
                        status.hasPrefix("HTTP/1.1 401") || status.hasPrefix("HTTP/1.1 404") || status.hasPrefix("HTTP/1.1 405"),
                        "\(method) \(path): \(status)")
                }
            }
            // The slashed spellings the router sends there still open with the credential.
            for path in ["/metrics/", "//metrics", "/metrics//"] {
                let answer = try await Self.raw(
                    harness, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.key)\r\nConnection: close\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("livepush_server_outbox_depth"), "\(path): \(answer.prefix(200))")
            }
        }
    }

    /// The same audit for the other routes with a credential rule of their own: the console's API
    /// (operator key) and the backend's and app's routes answer no spelling of their paths without one.
    /// (`/console` and `/openapi.json` are public: they hold no data.)
    @Test func everySpellingOfACredentialRouteNeedsTheCredential() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            for path in [
                "/v1/operator/overview", "/v1/operator/overview/", "//v1/operator/overview", "/v1//operator/overview", "/v1/operator//overview//",
                "/v1/operator/activities/", "//v1//operator//sends", "/V1/operator/overview", "/v1/%6Fperator/overview", "/v1/sends/x/",
                "//v1/activities/a1", "/v1/activities//a1/",
            ] {
                let answer = try await Self.raw(harness, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let status = answer.split(separator: "\r\n").first.map(String.init) ?? ""
                #expect(status.hasPrefix("HTTP/1.1 401") || status.hasPrefix("HTTP/1.1 404"), "\(path): \(answer.prefix(300))")
            }
        }
    }

    /// The whole answer to one raw request (the request asks the server to close the connection).
    static func raw(_ harness: TestServer, _ request: String) async throws -> String {
        try await TransferCodingTests.RawConnection.with(port: try #require(harness.server.port)) { connection in
            try await connection.send(request)
            _ = await eventually(timeout: .seconds(10)) { connection.closed != nil }
            return connection.text
        }
    }

    @Test func withoutAKeyMetricsArePublic() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { server in
            let metrics = try await server.http.get("/metrics", key: nil)
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("livepush_server_outbox_depth"))
        }
    }

    @Test func aShortKeyIsRefusedNamingItsSource() async throws {
        do {
            _ = try await ServeSettings.read(
                arguments: ["--url", "https://127.0.0.1:2197"], environment: ["LIVEPUSH_METRICS_KEY": "short"])
            Issue.record("a 5-character metrics key was accepted")
        } catch {
            #expect(error.description == "$LIVEPUSH_METRICS_KEY must have at least 32 characters, without spaces (e.g. `openssl rand -hex 32`)")
        }
    }
}
