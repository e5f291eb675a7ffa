import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// What the hostile probe of issue 20 found about ownership and credentials, each as an attack that must
/// fail: racing registrations, push-to-start tokens moved between users, credentials that outlive their
/// revocation, and user tokens minted for installation ids. On SQLite and PostgreSQL.
@Suite struct OwnershipTests {
    static let hex = IdentityTests.hex

    /// Two users register one new activity id at the same moment, 50 times: each round exactly one owns
    /// it, with its own token, and the other gets the answer of any foreign id (409 taken).
    @Test(arguments: TestDatabase.available)
    func twoUsersRacingForOneNewIDLeaveExactlyOneOwner(database: TestStore) async throws {
        // 100 registrations a user in a few seconds: over the default rate limit, which is not under test.
        try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.appRateLimit = 0 }) { harness in
            let http = harness.http
            let tokens = [
                try await harness.mintUserToken("alice"), try await harness.mintUserToken("mallory"),
            ]
            for round in 0..<50 {
                let id = "race-\(round)"
                let answers = try await withThrowingTaskGroup(of: (Int, TestResponse).self) { group in
                    for (index, token) in tokens.enumerated() {
                        let body = registrationJSON(activityID: id, token: Self.pushToken(round: round, user: index))
                        group.addTask { (index, try await http.post("/v1/activities", key: token, body)) }
                    }
                    var answers = [Int: TestResponse]()
                    for try await (index, answer) in group { answers[index] = answer }
                    return answers
                }
                let winners = answers.filter { $0.value.status == 201 }.map(\.key)
                #expect(winners.count == 1, "round \(round): \(answers.values.map { "\($0.status) \($0.text)" })")
                guard let winner = winners.first, let loser = answers[1 - winner] else { continue }
                #expect(loser.status == 409 && loser.errorRule == "taken", "round \(round): \(loser.text)")
                let stored = try #require(try await harness.store.activity(id: id))
                #expect(stored.userID == ["alice", "mallory"][winner], "round \(round): the winner owns it")
                #expect(stored.pushToken.hex == Self.pushToken(round: round, user: winner), "round \(round): with the winner's token")
            }
        }
    }

    /// A user cannot store another user's push-to-start token value (it would let them start activities on
    /// the victim's iPhone); once the holder releases it (sign-out, or the backend signs them out) it moves.
    @Test(arguments: TestDatabase.available)
    func aPushToStartTokenStaysWithItsUserUntilReleased(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let (victim, attacker) = try await (harness.mintUserToken("victim"), harness.mintUserToken("attacker"))
            let value = Self.hex(0x61)
            func store(_ token: String, device: String) async throws -> TestResponse {
                try await http.put(
                    "/v1/push-to-start-tokens", key: token,
                    #"{"deviceId":"\#(device)","bundleId":"com.example.rangers","attributesType":"T","environment":"sandbox","token":"\#(value)"}"#)
            }
            #expect(try await store(victim, device: "victim-phone").status == 200)
            let stolen = try await store(attacker, device: "attacker-phone")
            #expect(stolen.status == 409 && stolen.errorField == "token" && stolen.errorRule == "heldByAnotherUser", "\(stolen.text)")
            #expect(!stolen.text.contains("victim"), "the answer does not name the holder: \(stolen.text)")
            #expect(try await harness.store.pushToStartTokens(forUser: "attacker", attributesType: "T").isEmpty)
            let start = try await http.post(
                "/v1/users/attacker/start", key: TestServer.backendKey,
                #"{"attributesType":"T","attributes":{},"contentState":{},"alert":{"title":"Go","body":"Now"}}"#)
            #expect(start.status != 202 || start.json?["pushIds"]?.arrayValue?.isEmpty == true, "nothing starts on the victim's phone: \(start.text)")
            // The same user on a second device keeps working, and storing again is idempotent.
            #expect(try await store(victim, device: "victim-phone").status == 200)

            // The victim's app signs out: its device's tokens are released, and the device's next user stores them.
            let released = try await http.request("DELETE", "/v1/push-to-start-tokens/victim-phone", key: victim)
            #expect(released.status == 200 && released.json?["released"]?.numberValue == 1, "\(released.text)")
            #expect(try await store(attacker, device: "handed-over-phone").status == 200)
            // The backend signs a user out: the same, for all the user's devices.
            let signOut = try await http.post("/v1/users/attacker/sign-out", key: TestServer.backendKey, "")
            #expect(signOut.status == 200 && signOut.json?["pushToStartTokensReleased"]?.numberValue == 1, "\(signOut.text)")
            let fresh = try await harness.mintUserToken("victim")
            #expect(try await store(fresh, device: "victim-phone").status == 200)
        }
    }

    /// Revocation bites on the next request: a revoked backend key's user tokens, a revoked app key's
    /// installations, and one user's tokens after a sign-out (others unaffected, later tokens work).
    @Test(arguments: TestDatabase.available)
    func revokedCredentialsStopWorkingAtOnce(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let backendKey = "lp_backend_" + String(repeating: "b", count: 43)
            let appKey = "lp_app_" + String(repeating: "a", count: 43)
            let backendRecord = try await harness.store.createAPIKey(
                name: "backend", scope: .backend, sha256Hash: APIKeys.hash(backendKey), at: Date())
            let appRecord = try await harness.store.createAPIKey(name: "app", scope: .app, sha256Hash: APIKeys.hash(appKey), at: Date())
            func register(_ token: String, _ id: String, _ byte: UInt8) async throws -> TestResponse {
                try await http.post("/v1/activities", key: token, registrationJSON(activityID: id, token: Self.hex(byte)))
            }

            // A user token minted with a stored backend key dies with that key.
            let minted = try await http.post("/v1/users/rider/app-tokens", key: backendKey, "")
            let riderToken = try #require(minted.json?["token"]?.stringValue)
            #expect(try await register(riderToken, "r-1", 0x71).status == 201)
            _ = try await harness.store.revokeAPIKey(id: backendRecord.id, at: Date())
            let afterKeyRevoked = try await register(riderToken, "r-2", 0x72)
            #expect(afterKeyRevoked.status == 401 && afterKeyRevoked.errorRule == "revoked", "\(afterKeyRevoked.text)")

            // An installation dies with the app key that opened it; renewal keeps the key.
            let opened = try await http.post("/v1/installations", key: appKey, "")
            let installation = try #require(opened.json?["installationId"]?.stringValue)
            let installationToken = try #require(opened.json?["token"]?.stringValue)
            let renewed = try await http.post("/v1/installations/\(installation)/token", key: installationToken, "")
            #expect(renewed.status == 201 && renewed.json?["installationId"]?.stringValue == installation, "\(renewed.text)")
            let renewedToken = try #require(renewed.json?["token"]?.stringValue)
            #expect(try await register(renewedToken, "i-1", 0x73).status == 201)
            let otherInstallation = try await http.post("/v1/installations/inst_AAAAAAAAAAAAAAAAAAAAAA/token", key: renewedToken, "")
            #expect(otherInstallation.status == 404, "an installation renews only itself: \(otherInstallation.text)")
            _ = try await harness.store.revokeAPIKey(id: appRecord.id, at: Date())
            for token in [installationToken, renewedToken] {
                let refused = try await register(token, "i-2", 0x74)
                #expect(refused.status == 401 && refused.errorRule == "revoked", "\(refused.text)")
            }

            // One user signed out: that user's tokens stop, another user's keep working, a new token works.
            let (alice, bob) = try await (harness.mintUserToken("alice"), harness.mintUserToken("bob"))
            #expect(try await http.post("/v1/users/alice/sign-out", key: TestServer.backendKey, "{}").status == 200)
            let signedOut = try await register(alice, "a-1", 0x75)
            #expect(signedOut.status == 401 && signedOut.errorRule == "revoked", "\(signedOut.text)")
            #expect(try await register(bob, "b-1", 0x76).status == 201)
            let again = try await harness.mintUserToken("alice")
            #expect(try await register(again, "a-1", 0x75).status == 201)
        }
    }

    /// Issue 30, finding 5: renewing an installation token retires the token that renewed it (and every
    /// earlier one) at once, so a stolen token cannot be renewed alongside the app's; the new token works
    /// and renews in turn.
    @Test(arguments: TestDatabase.available)
    func renewingAnInstallationTokenRetiresTheOldOne(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let (installation, first) = try await harness.openInstallation(appKeyOf: "r")
            let renewed = try await http.post("/v1/installations/\(installation)/token", key: first, "")
            #expect(renewed.status == 201, "\(renewed.text)")
            let second = try #require(renewed.json?["token"]?.stringValue)
            for path in ["/v1/installations/\(installation)/token", "/v1/activities"] {
                let old = try await http.post(path, key: first, registrationJSON(activityID: "i-1", token: Self.hex(0x81)))
                #expect(old.status == 401 && old.errorRule == "revoked", "\(path) with the renewed token: \(old.text)")
            }
            #expect(try await http.post("/v1/activities", key: second, registrationJSON(activityID: "i-1", token: Self.hex(0x81))).status == 201)
            let again = try await http.post("/v1/installations/\(installation)/token", key: second, "")
            #expect(again.status == 201, "\(again.text)")
            #expect(try await http.post("/v1/activities", key: second, registrationJSON(activityID: "i-2", token: Self.hex(0x82))).status == 401)
        }
    }

    /// Users and installations do not share ids: no user token for an `inst_` id, and a user token that
    /// claims one (minted before this rule) is refused.
    @Test func userTokensNeverActForAnInstallation() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let (installation, installationToken) = try await harness.openInstallation(appKeyOf: "n")
            #expect(
                try await http.post("/v1/activities", key: installationToken, registrationJSON(activityID: "n-1", token: Self.hex(0x81))).status
                    == 201)

            let minted = try await http.post("/v1/users/\(installation)/app-tokens", key: TestServer.backendKey, "")
            #expect(minted.status == 400 && minted.errorField == "userId" && minted.errorRule == "reservedPrefix", "\(minted.text)")
            let secret = try await AppTokenKey(store: harness.store, configuredSecret: nil).codec()
            let now = Int64(Date().timeIntervalSince1970)
            let old = secret.sign(AppToken(subject: installation, kind: .user, issuedAt: now, expiresAt: now + 600))
            let refused = try await http.post("/v1/activities/n-1/ended", key: old, "{}")
            #expect(refused.status == 401 && refused.errorRule == "appToken", "\(refused.text)")
            // An installation token without an expiry (as they were minted before they expired) is refused.
            let eternal = secret.sign(AppToken(subject: installation, kind: .installation, issuedAt: now, expiresAt: nil))
            #expect(try await http.post("/v1/activities/n-1/ended", key: eternal, "{}").status == 401)
        }
    }

    static func pushToken(round: Int, user: Int) -> String {
        String(format: "%02x%02x", round, user) + String(repeating: "ab", count: 30)
    }
}
