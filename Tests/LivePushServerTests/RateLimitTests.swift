import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// Per-principal limits on the app routes and per-key limits on the backend routes: 429 with
/// `Retry-After`, counted in the metrics, one principal never spending another's.
@Suite struct RateLimitTests {
    @Test func eachPrincipalHasItsOwnBucket() async throws {
        try await withServer(
            ServerOptions(sender: FakeSender()) {
                $0.allowBurst(3, for: .app)
                $0.allowBurst(5, for: .backend)
            }
        ) { harness in
            let http = harness.http
            // Minting two tokens spends two of the backend key's five.
            let (alice, bob) = try await (harness.mintUserToken("alice"), harness.mintUserToken("bob"))
            for index in 0..<3 {
                let response = try await http.post(
                    "/v1/activities", key: alice, registrationJSON(activityID: "a-\(index)", token: IdentityTests.hex(UInt8(index + 1))))
                #expect(response.status == 201, "\(response.text)")
            }
            let (limited, headers) = try await http.request(
                "POST", "/v1/activities", key: alice, body: Data(registrationJSON(activityID: "a-9", token: IdentityTests.hex(9)).utf8))
            #expect(limited.status == 429 && limited.errorRule == "rateLimit", "\(limited.text)")
            let retryAfter = try #require(headers["retry-after"].flatMap(Int.init))
            #expect((30...60).contains(retryAfter), "one request a minute refills (less the seconds the test took): \(retryAfter)")
            #expect(try await harness.store.activity(id: "a-9") == nil, "nothing of a limited request is done")

            #expect(
                try await http.post("/v1/activities", key: bob, registrationJSON(activityID: "b-1", token: IdentityTests.hex(0x21))).status == 201,
                "another user is not limited by alice's requests")
            for index in 0..<10 {
                let response = try await http.post(
                    "/v1/activities", key: TestServer.appKey,
                    registrationJSON(activityID: "dev-\(index)", token: IdentityTests.hex(UInt8(0x30 + index))))
                #expect(response.status == 201, "development app keys are not limited: \(response.text)")
            }
            var backendStatuses = [Int]()
            for _ in 0..<4 { backendStatuses.append(try await http.get("/v1/activities/a-0", key: TestServer.backendKey).status) }
            #expect(backendStatuses == [200, 200, 200, 429], "the backend key's burst of 5, 2 spent on tokens")

            let metrics = try await http.get("/metrics").text
            #expect(
                metrics.contains(#"livepush_server_rate_limited_requests_total{scope="app"} 1"#),
                "\(metrics.split(separator: "\n").filter { $0.contains("rate_limited") })")
            #expect(metrics.contains(#"livepush_server_rate_limited_requests_total{scope="backend"} 1"#))
        }
    }

    @Test func bucketsRefillAndIdleOnesAreDropped() {
        let buckets = TokenBuckets(perMinute: 120, burst: 2, maximumBuckets: 3)
        #expect(buckets.take("a", now: 0) == nil)
        #expect(buckets.take("a", now: 0) == nil)
        let wait = buckets.take("a", now: 0)
        #expect(wait.map { abs($0 - 0.5) < 1e-9 } == true, "two a second: the next in half a second")
        #expect(buckets.take("a", now: 0.5) == nil)
        for name in ["b", "c", "d"] { #expect(buckets.take(name, now: 10) == nil) }
        #expect(buckets.count <= 3, "idle buckets are dropped past the maximum")
        #expect(TokenBuckets(perMinute: 1, burst: 1).take("x", now: 0) == nil)
    }
}
