import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The operator scope (issue 22): an operator key reads the console's routes and nothing else, and no
/// app or backend credential reads them. On SQLite and PostgreSQL.
@Suite struct OperatorScopeTests {
    @Test(arguments: TestDatabase.available)
    func operatorRoutesTakeOnlyOperatorKeysAndOperatorKeysNothingElse(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            // A stored operator key, as `livepush keys create --scope operator` makes it.
            let stored = APIKeys.generate(scope: .operator)
            #expect(stored.hasPrefix("lp_operator_"))
            let record = try await harness.store.createAPIKey(name: "console", scope: .operator, sha256Hash: APIKeys.hash(stored), at: Date())
            #expect(
                try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a-1", token: IdentityTests.hex(0x41)))
                    .status == 201)
            let userToken = try await harness.mintUserToken("someone")

            for key in [stored, TestServer.operatorKey] {
                #expect(try await http.get("/v1/operator/overview", key: key).status == 200)
                #expect(try await http.get("/v1/operator/activities/a-1", key: key).status == 200)
                // Read-only elsewhere: neither a backend nor an app route takes it.
                let read = try await http.get("/v1/activities/a-1", key: key)
                #expect(read.status == 403 && read.errorRule == "scope" && read.errorField == "Authorization", "\(read.text)")
                let update = try await http.post("/v1/activities/a-1/update", key: key, #"{"contentState":{"hp":1}}"#)
                #expect(update.status == 403 && update.errorRule == "scope", "\(update.text)")
                let register = try await http.post("/v1/activities", key: key, registrationJSON(activityID: "a-2", token: IdentityTests.hex(0x42)))
                #expect(register.status == 403 && register.errorRule == "scope", "\(register.text)")
                let mint = try await http.post("/v1/users/u/app-tokens", key: key, "{}")
                #expect(mint.status == 403, "\(mint.text)")
            }
            for key in [TestServer.backendKey, TestServer.appKey, userToken] {
                for path in ["/v1/operator/overview", "/v1/operator/activities", "/v1/operator/activities/a-1", "/v1/operator/sends"] {
                    let refused = try await http.get(path, key: key)
                    #expect(refused.status == 403 && refused.errorRule == "scope", "\(path): \(refused.text)")
                    #expect(refused.text.contains("--scope operator"), "the refusal says how to get an operator key: \(refused.text)")
                }
                let test = try await http.post("/v1/operator/activities/a-1/test-push", key: key, #"{"confirmActivityId":"a-1","contentState":{}}"#)
                #expect(test.status == 403 && test.errorRule == "scope", "\(test.text)")
            }
            let missing = try await http.get("/v1/operator/overview")
            #expect(missing.status == 401 && missing.errorRule == "required" && missing.text.contains("--scope operator"), "\(missing.text)")

            _ = try await harness.store.revokeAPIKey(id: record.id, at: Date())
            let revoked = try await http.get("/v1/operator/overview", key: stored)
            #expect(revoked.status == 401 && revoked.errorRule == "apiKey", "\(revoked.text)")
        }
    }

    /// Each operator key has its own bucket (`--operator-rate-limit`, `--operator-rate-burst`): over it the
    /// console's routes answer 429 `rateLimit` with `Retry-After`, counted; the backend's keys are not
    /// spent by it.
    @Test func operatorKeysAreRateLimited() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.allowBurst(3, for: .operator) }) { harness in
            let http = harness.http
            var statuses = [Int]()
            for _ in 0..<3 { statuses.append(try await http.get("/v1/operator/overview", key: TestServer.operatorKey).status) }
            #expect(statuses == [200, 200, 200])
            let (limited, headers) = try await http.request("GET", "/v1/operator/sends", key: TestServer.operatorKey, body: nil)
            #expect(limited.status == 429 && limited.errorRule == "rateLimit", "\(limited.text)")
            #expect(limited.text.contains("operator credential"), "\(limited.text)")
            let retryAfter = try #require(headers["retry-after"].flatMap(Int.init))
            #expect((30...60).contains(retryAfter), "one request a minute refills (less the seconds the test took): \(retryAfter)")
            let test = try await http.post(
                "/v1/operator/activities/a/test-push", key: TestServer.operatorKey, #"{"confirmActivityId":"a","contentState":{}}"#)
            #expect(test.status == 429, "the one write is limited too: \(test.text)")
            #expect(try await http.get("/v1/activities/a", key: TestServer.backendKey).status == 404, "the backend key has its own limit")
            let metrics = try await http.get("/metrics").text
            #expect(metrics.contains(#"livepush_server_rate_limited_requests_total{scope="operator"} 2"#))
        }
    }
}
