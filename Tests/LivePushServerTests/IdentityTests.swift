import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// Each app acts only for its own user: user tokens the backend mints, installation tokens for apps
/// without accounts, stored app keys that only open installations (issue 12). On SQLite and PostgreSQL.
@Suite struct IdentityTests {
    static func hex(_ byte: UInt8) -> String { String(repeating: String(format: "%02x", byte), count: 32) }

    @Test(arguments: TestDatabase.available)
    func anAttackerHoldingTheAppsCredentialsCannotTouchAnotherUser(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let (victim, attacker) = try await (harness.mintUserToken("victim"), harness.mintUserToken("attacker"))

            let registered = try await http.post("/v1/activities", key: victim, registrationJSON(activityID: "victim-ride", token: Self.hex(0x11)))
            #expect(registered.status == 201, "\(registered.text)")
            #expect(registered.json?["userId"]?.stringValue == "victim", "the token names the owner when the body does not")

            // The report's attack: a push-to-start token stored for the victim from the attacker's phone.
            let planted = try await http.put(
                "/v1/push-to-start-tokens", key: attacker,
                #"{"userId":"victim","deviceId":"attacker-device","bundleId":"com.example.enc","attributesType":"T","environment":"sandbox","token":"\#(Self.hex(0x34))"}"#
            )
            #expect(planted.status == 403 && planted.errorField == "userId" && planted.errorRule == "otherUser", "\(planted.text)")
            let own = try await http.put(
                "/v1/push-to-start-tokens", key: attacker,
                #"{"deviceId":"attacker-device","bundleId":"com.example.enc","attributesType":"T","environment":"sandbox","token":"\#(Self.hex(0x34))"}"#
            )
            #expect(own.status == 200 && own.json?["userId"]?.stringValue == "attacker", "\(own.text)")
            #expect(try await harness.store.pushToStartTokens(forUser: "victim", attributesType: "T").isEmpty)

            let claimed = try await http.post(
                "/v1/activities", key: attacker, registrationJSON(activityID: "a-1", token: Self.hex(0x21), userID: "victim"))
            #expect(claimed.status == 403 && claimed.errorField == "userId", "\(claimed.text)")
            let hijack = try await http.post("/v1/activities", key: attacker, registrationJSON(activityID: "victim-ride", token: Self.hex(0x22)))
            #expect(hijack.status == 409 && hijack.errorField == "activityId" && hijack.errorRule == "taken", "\(hijack.text)")
            #expect(!hijack.text.contains("victim\""), "the answer does not name the owner: \(hijack.text)")
            // Another user's activity is answered exactly like a missing one: no existence oracle.
            let rotate = try await http.put("/v1/activities/victim-ride/push-token", key: attacker, #"{"pushToken":"\#(Self.hex(0x23))"}"#)
            let rotateMissing = try await http.put("/v1/activities/nobody/push-token", key: attacker, #"{"pushToken":"\#(Self.hex(0x23))"}"#)
            #expect(rotate.status == 404 && rotate.errorRule == "exists", "\(rotate.text)")
            #expect(rotate.text.replacingOccurrences(of: "victim-ride", with: "nobody") == rotateMissing.text)
            for path in ["ended", "dismissed"] {
                let foreign = try await http.post("/v1/activities/victim-ride/\(path)", key: attacker, "{}")
                let missing = try await http.post("/v1/activities/nobody/\(path)", key: attacker, "{}")
                #expect(
                    foreign.status == 404 && foreign.text.replacingOccurrences(of: "victim-ride", with: "nobody") == missing.text, "\(foreign.text)")
            }
            // A token collision does not name the other user's activity.
            let collision = try await http.post("/v1/activities", key: attacker, registrationJSON(activityID: "a-2", token: Self.hex(0x11)))
            #expect(collision.status == 409 && !collision.text.contains("victim-ride"), "\(collision.text)")

            let stored = try #require(try await harness.store.activity(id: "victim-ride"))
            #expect(stored.userID == "victim" && stored.state == .active && stored.pushToken.hex == Self.hex(0x11), "nothing of the victim's changed")

            // The owner can.
            #expect(try await http.put("/v1/activities/victim-ride/push-token", key: victim, #"{"pushToken":"\#(Self.hex(0x12))"}"#).status == 200)
            #expect(try await http.post("/v1/activities/victim-ride/ended", key: victim, "{}").status == 200)

            // Scopes: a user token is not a backend key and the other way round.
            let backendWithToken = try await http.post("/v1/activities/victim-ride/update", key: attacker, #"{"contentState":{}}"#)
            #expect(backendWithToken.status == 403 && backendWithToken.errorRule == "scope")
            #expect(
                try await http.post("/v1/activities", key: TestServer.backendKey, registrationJSON(activityID: "b", token: Self.hex(0x31))).status
                    == 403)
        }
    }

    @Test(arguments: TestDatabase.available)
    func anAppKeyOnlyOpensInstallationsWhichActForThemselves(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let appKey = "lp_app_" + String(repeating: "k", count: 43)
            _ = try await harness.store.createAPIKey(name: "shipped", scope: .app, sha256Hash: APIKeys.hash(appKey), at: Date())

            let direct = try await http.post(
                "/v1/activities", key: appKey, registrationJSON(activityID: "i-1", token: Self.hex(0x41), userID: "victim"))
            #expect(direct.status == 403 && direct.errorRule == "installerKey", "\(direct.text)")
            #expect(
                try await http.put(
                    "/v1/push-to-start-tokens", key: appKey,
                    #"{"userId":"victim","deviceId":"d","bundleId":"b","attributesType":"T","environment":"sandbox","token":"\#(Self.hex(0x42))"}"#
                ).status == 403)

            let opened = try await http.post("/v1/installations", key: appKey, "")
            #expect(opened.status == 201, "\(opened.text)")
            let installation = try #require(opened.json?["installationId"]?.stringValue)
            let token = try #require(opened.json?["token"]?.stringValue)
            #expect(installation.hasPrefix("inst_") && installation.count == 27)
            let second = try await http.post("/v1/installations", key: appKey, "{}")
            #expect(second.json?["installationId"]?.stringValue != installation, "every installation gets its own id")

            let registered = try await http.post("/v1/activities", key: token, registrationJSON(activityID: "i-1", token: Self.hex(0x41)))
            #expect(registered.status == 201 && registered.json?["userId"]?.stringValue == installation, "\(registered.text)")
            #expect(opened.json?["expiresAt"]?.stringValue != nil, "installation tokens expire")
            let other = try await http.post(
                "/v1/activities", key: token, registrationJSON(activityID: "i-2", token: Self.hex(0x43), userID: "victim"))
            #expect(other.status == 403)
            let again = try await http.post("/v1/installations", key: token, "")
            #expect(again.status == 403 && again.errorRule == "appToken", "a token does not open more installations")
            // The installation stores its push-to-start token; the backend addresses it as a user.
            let stored = try await http.put(
                "/v1/push-to-start-tokens", key: token,
                #"{"deviceId":"phone","bundleId":"com.example.rangers","attributesType":"T","environment":"sandbox","token":"\#(Self.hex(0x44))"}"#)
            #expect(stored.status == 200 && stored.json?["userId"]?.stringValue == installation, "\(stored.text)")
            let start = try await http.post(
                "/v1/users/\(installation)/start", key: TestServer.backendKey,
                #"{"attributesType":"T","attributes":{},"contentState":{},"alert":{"title":"Go","body":"Now"}}"#)
            #expect(start.status == 202 && start.json?["pushIds"]?.arrayValue?.count == 1, "\(start.text)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func tokensAreCheckedAndOutliveARestart(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let token = try await harness.mintUserToken("rider", ttl: 600)
            let minted = try await harness.http.request("POST", "/v1/users/rider/app-tokens", key: TestServer.backendKey, json: nil)
            let expiresAt = try #require(minted.json?["expiresAt"]?.stringValue)
            let expiry = try #require(ISO8601DateFormatter().date(from: expiresAt))
            #expect(abs(expiry.timeIntervalSinceNow - 3600) < 30, "the default lifetime is an hour")

            for ttl in ["30", "604801", "\"60\"", "60.5"] {
                let refused = try await harness.http.post("/v1/users/rider/app-tokens", key: TestServer.backendKey, #"{"ttlSeconds":\#(ttl)}"#)
                #expect(refused.status == 400 && refused.errorField == "ttlSeconds", "ttlSeconds \(ttl): \(refused.text)")
            }
            // Changed, truncated, unsigned or foreign tokens are refused with 401.
            var parts = token.split(separator: ".").map(String.init)
            let forgedClaims = #"{"iat":1,"iss":"livepush","sub":"victim","typ":"user","exp":9999999999}"#
            parts[1] = Data(forgedClaims.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            let unsigned =
                Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + "." + parts[1] + "."
            let foreign = AppTokenCodec(secret: Data(repeating: 7, count: 32)).sign(
                AppToken(subject: "rider", kind: .user, issuedAt: 1, expiresAt: 9_999_999_999))
            for bad in [parts.joined(separator: "."), String(token.dropLast(3)), unsigned, foreign, "a.b.c"] {
                let refused = try await harness.http.post("/v1/activities", key: bad, registrationJSON(activityID: "x", token: Self.hex(0x51)))
                #expect(refused.status == 401 && refused.errorField == "Authorization", "\(refused.text)")
            }
            try await harness.restart()
            let after = try await harness.http.post("/v1/activities", key: token, registrationJSON(activityID: "r-1", token: Self.hex(0x52)))
            #expect(after.status == 201, "a token minted before a restart is accepted after it (the key is in the store): \(after.text)")
        }
    }

    @Test func anExpiredTokenIsRefusedWithItsOwnRule() async throws {
        let secret = String(repeating: "s", count: 32)
        try await withServer(ServerOptions(sender: FakeSender()) { $0.appTokenSecret = secret }) { harness in
            let codec = AppTokenCodec(secret: Data(secret.utf8))
            let now = Int64(Date().timeIntervalSince1970)
            let expired = codec.sign(AppToken(subject: "rider", kind: .user, issuedAt: now - 120, expiresAt: now - 60))
            let refused = try await harness.http.post("/v1/activities", key: expired, registrationJSON(activityID: "x", token: Self.hex(0x61)))
            #expect(refused.status == 401 && refused.errorRule == "expired", "\(refused.text)")
            let valid = codec.sign(AppToken(subject: "rider", kind: .user, issuedAt: now, expiresAt: now + 60))
            #expect(
                try await harness.http.post("/v1/activities", key: valid, registrationJSON(activityID: "x", token: Self.hex(0x61))).status == 201,
                "the configured secret signs and checks")
        }
    }
}
