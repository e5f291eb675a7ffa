import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// Issue 30, finding 10: line separators in ids, duplicate JSON keys, chunked bodies on HTTP/1.0, and
/// the headers every answer carries.
@Suite struct ResponseHardeningTests {
    static let token = IdentityTests.hex(0x71)

    @Test func lineAndParagraphSeparatorsAreRefusedInIDs() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let cases: [(String, String)] = [
                (registrationJSON(activityID: #"a\u2028b"#, token: Self.token), "activityId"),
                (registrationJSON(activityID: "a1", token: Self.token, groups: [#"party\u2029"#]), "groups[0]"),
                (registrationJSON(activityID: "a1", token: Self.token, userID: #"u\u2028"#), "userId"),
            ]
            for (json, field) in cases {
                let response = try await http.post("/v1/activities", key: TestServer.appKey, json)
                #expect(response.status == 400 && response.errorField == field && response.errorRule == "invalid", "\(field): \(response.text)")
            }
            let path = try await http.get("/v1/activities/a%E2%80%A8b", key: TestServer.backendKey)
            #expect(path.status == 400 && path.errorField == "activityId", "\(path.text)")
            // Below the contract: the store refuses them too.
            await #expect(throws: PushStoreError.self) { _ = try await harness.store.activity(id: "a\u{2029}b") }
            #expect(try await harness.store.activityCount() == 0)
        }
    }

    @Test func aKeyGivenTwiceIsRefused() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            #expect(
                try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "act-alice-1", token: Self.token)).status
                    == 201)
            let twice = try await http.post(
                "/v1/operator/activities/act-alice-1/test-push", key: TestServer.operatorKey,
                #"{"confirmActivityId":"x","confirmActivityId":"act-alice-1","contentState":{"hp":1}}"#)
            #expect(twice.status == 400 && twice.errorField == "confirmActivityId" && twice.errorRule == "duplicateKey", "\(twice.text)")
            let nested = try await http.post(
                "/v1/activities/act-alice-1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1,"hp":2}}"#)
            #expect(nested.status == 400 && nested.errorField == "contentState.hp" && nested.errorRule == "duplicateKey", "\(nested.text)")
            #expect(try await harness.store.pendingItems(activityID: "act-alice-1").isEmpty, "nothing was sent")
        }
    }

    /// `nosniff` and `no-store` on answers of every kind: success, refusals, errors, metrics, the contract.
    @Test func everyAnswerCarriesNosniffAndNoStore() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let requests: [(String, String, String?, String?)] = [
                ("GET", "/health", nil, nil), ("GET", "/metrics", nil, nil), ("GET", "/openapi.json", nil, nil),
                ("GET", "/nowhere", nil, nil), ("DELETE", "/health", nil, nil), ("GET", "/v1/activities/a1", nil, nil),
                ("GET", "/v1/activities/a1", TestServer.backendKey, nil),
                ("POST", "/v1/activities", TestServer.appKey, registrationJSON(activityID: "h1", token: Self.token)),
                ("POST", "/v1/activities", TestServer.appKey, "{"), ("POST", "/v1/users/ava/app-tokens", TestServer.backendKey, "{}"),
                ("GET", "/console", nil, nil),
            ]
            for (method, path, key, body) in requests {
                let (response, headers) = try await http.request(method, path, key: key, body: body.map { Data($0.utf8) })
                #expect(headers["x-content-type-options"] == "nosniff", "\(method) \(path) \(response.status)")
                #expect(headers["cache-control"] == "no-store", "\(method) \(path) \(response.status)")
            }
        }
    }
}
