import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// What reaches an APNs header carries no control character, and ids are limited in bytes and refuse
/// invisible format characters: each refused with 400 naming the field, the rule and what is accepted.
@Suite struct InputHardeningTests {
    let token = String(repeating: "ab", count: 32)

    /// `collapseId` becomes `apns-collapse-id`: CR/LF was accepted (and then retried until it expired),
    /// a NUL was cut (`c\u0000d` reached APNs as `c`), and HTTP drops a value's outer spaces.
    @Test func collapseIDsThatCannotBeAHeaderValueAreRefused() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            #expect(try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a1", token: token)).status == 201)
            for (value, what) in [
                (#"c\r\nX-Injected: 1"#, "U+000D"), (#"c\u0000d"#, "U+0000"), (#"tab\there"#, "U+0009"), (#"del\u007F"#, "U+007F"),
                (#"zero\u200Bwidth"#, "U+200B"), (" padded", "space"), ("padded ", "space"),
            ] {
                let response = try await http.post(
                    "/v1/activities/a1/update", key: TestServer.backendKey,
                    #"{"contentState":{"hp":1},"collapseId":"\#(value)"}"#)
                #expect(
                    response.status == 400 && response.errorField == "collapseId" && response.errorRule == "invalid",
                    "\(value.debugDescription): \(response.status) \(response.text)")
                #expect(response.text.contains(what) && response.text.contains("apns-collapse-id"), "\(response.text)")
            }
            let fine = try await http.post(
                "/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1},"collapseId":"loot drop é"}"#)
            #expect(fine.status == 202, "\(fine.text)")
        }
    }

    /// The bundle id becomes `apns-topic`: refused by the route with a control or format character.
    @Test func bundleIDsAreCheckedByTheRoute() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let registration = try await http.post(
                "/v1/activities", key: TestServer.appKey,
                registrationJSON(activityID: "a1", token: token, bundleID: #"com.example\r\nx"#))
            #expect(
                registration.status == 400 && registration.errorField == "bundleId" && registration.errorRule == "invalid", "\(registration.text)")
            #expect(registration.text.contains("U+000D at position 12"), "\(registration.text)")
            let pushToStart = try await http.put(
                "/v1/push-to-start-tokens", key: TestServer.appKey,
                #"{"userId":"u","deviceId":"d","bundleId":"com.example\u202E","attributesType":"T","environment":"sandbox","token":"\#(token)"}"#)
            #expect(pushToStart.status == 400 && pushToStart.errorField == "bundleId" && pushToStart.errorRule == "invalid", "\(pushToStart.text)")
        }
    }

    /// "e" and 10,000 combining accents look like one letter: 10,001 characters (Unicode scalars) of 20,001 bytes.
    @Test func idsAreLimitedInBytes() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let heavy = "e" + String(repeating: "\u{301}", count: 10_000)
            let body = try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: heavy, token: token))
            #expect(body.status == 400 && body.errorField == "activityId" && body.errorRule == "maxBytes", "\(body.status) \(body.text.prefix(300))")
            #expect(body.text.contains("20001 bytes") && body.text.contains("at most 512"), "\(body.text.prefix(300))")
            let encoded = try #require(heavy.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let path = try await http.get("/v1/activities/\(encoded)", key: TestServer.backendKey)
            #expect(path.status == 400 && path.errorField == "activityId" && path.errorRule == "maxBytes", "\(path.status) \(path.text.prefix(300))")
            // 128 foxes are 128 characters of 4 bytes: within both limits.
            let foxes = String(repeating: "🦊", count: 128)
            #expect(try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: foxes, token: token)).status == 201)
        }
    }

    /// Bidi overrides, zero-width characters and byte order marks (Unicode Cf) make ids that look alike.
    @Test func formatCharactersAreRefusedInIDs() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let cases: [(String, String, String?)] = [
                (registrationJSON(activityID: #"evil\u202Etxt"#, token: token), "activityId", "U+202E at position 5"),
                (registrationJSON(activityID: "a1", token: token, groups: [#"party\u200B"#]), "groups[0]", "U+200B"),
                (registrationJSON(activityID: "a1", token: token, userID: #"\uFEFFuser"#), "userId", "U+FEFF"),
            ]
            for (json, field, what) in cases {
                let response = try await http.post("/v1/activities", key: TestServer.appKey, json)
                #expect(response.status == 400 && response.errorField == field && response.errorRule == "invalid", "\(field): \(response.text)")
                if let what { #expect(response.text.contains(what) && response.text.contains("format character"), "\(response.text)") }
            }
            let path = try await http.get("/v1/activities/evil%E2%80%AEtxt", key: TestServer.backendKey)
            #expect(path.status == 400 && path.errorField == "activityId" && path.errorRule == "invalid", "\(path.text)")
            let group = try await http.post("/v1/groups/party%E2%80%8B/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
            #expect(group.status == 400 && group.errorField == "groupId" && group.errorRule == "invalid", "\(group.text)")
        }
    }
}
