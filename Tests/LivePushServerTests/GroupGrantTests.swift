import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The group rule (issue 30, finding 2): an app puts its user's activities only in the groups the
/// backend granted in the user token; installation tokens grant none. On SQLite and PostgreSQL.
@Suite struct GroupGrantTests {
    static let hex = IdentityTests.hex

    /// Alice's activity is in `secret-group`; Eve registers her own activity with that group using her
    /// own user token and gets 403 `groupNotGranted` naming the rule; the backend's group send reaches
    /// Alice's activity only.
    @Test(arguments: TestDatabase.available)
    func aUserJoinsOnlyTheGroupsItsTokenGrants(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let alice = try await harness.mintUserToken("alice", groups: ["secret-group"])
            let eve = try await harness.mintUserToken("eve", groups: ["eve-*"])
            let plainEve = try await harness.mintUserToken("eve")
            let registered = try await http.post(
                "/v1/activities", key: alice, registrationJSON(activityID: "alice-1", token: Self.hex(0x11), groups: ["secret-group"]))
            #expect(registered.status == 201, "\(registered.text)")

            for token in [eve, plainEve] {
                let joined = try await http.post(
                    "/v1/activities", key: token, registrationJSON(activityID: "eve-1", token: Self.hex(0x12), groups: ["secret-group"]))
                #expect(joined.status == 403 && joined.errorField == "groups" && joined.errorRule == "groupNotGranted", "\(joined.text)")
                #expect(joined.text.contains("secret-group") && joined.text.contains("app-tokens"), "the answer states the rule: \(joined.text)")
            }
            #expect(try await harness.store.activity(id: "eve-1") == nil, "nothing of a refused registration is stored")
            // A prefix grant: any group starting with it, and nothing else alongside.
            let own = try await http.post(
                "/v1/activities", key: eve, registrationJSON(activityID: "eve-2", token: Self.hex(0x13), groups: ["eve-party", "eve-"]))
            #expect(own.status == 201, "\(own.text)")
            let mixed = try await http.post(
                "/v1/activities", key: eve, registrationJSON(activityID: "eve-2", token: Self.hex(0x13), groups: ["eve-party", "secret-group"]))
            #expect(mixed.status == 403 && mixed.errorRule == "groupNotGranted", "re-registering cannot add the group either: \(mixed.text)")

            let members = try await harness.store.activities(inGroup: "secret-group").map(\.activityID)
            #expect(members == ["alice-1"])
            let sent = try await http.post("/v1/groups/secret-group/update", key: TestServer.backendKey, #"{"contentState":{"door":"1234"}}"#)
            #expect(sent.status == 202, "\(sent.text)")
        }
    }

    /// Installation tokens come from the app key anyone holding the app has: they grant no group. The
    /// development app key (local use) grants every group.
    @Test func installationsJoinNoGroupAndTheDevelopmentKeyAny() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let installation = try await harness.openInstallation(appKeyOf: "g").token
            let refused = try await http.post(
                "/v1/activities", key: installation, registrationJSON(activityID: "i-1", token: Self.hex(0x21), groups: ["party"]))
            #expect(refused.status == 403 && refused.errorRule == "groupNotGranted", "\(refused.text)")
            #expect(refused.text.contains("grants no group"), "\(refused.text)")
            #expect(
                try await http.post("/v1/activities", key: installation, registrationJSON(activityID: "i-1", token: Self.hex(0x21))).status == 201)
            let development = try await http.post(
                "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "d-1", token: Self.hex(0x22), groups: ["party"]))
            #expect(development.status == 201, "\(development.text)")
        }
    }

    /// What a backend may grant: ids or prefixes ending in `*`, at most 32; the answer lists them.
    @Test func theGrantIsCheckedWhenMinted() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let minted = try await http.post("/v1/users/ava/app-tokens", key: TestServer.backendKey, #"{"groups":["b","a-*","b"]}"#)
            #expect(minted.status == 201 && minted.json?["groups"] == ["a-*", "b"], "\(minted.text)")
            let inside = try await http.post("/v1/users/ava/app-tokens", key: TestServer.backendKey, #"{"groups":["a*b"]}"#)
            #expect(inside.status == 400 && inside.errorField == "groups[0]" && inside.errorRule == "groupPattern", "\(inside.text)")
            // 129 characters: what the contract admits (an id of 128 and its '*') is accepted (the fuzz run's case).
            let long = try await http.post(
                "/v1/users/ava/app-tokens", key: TestServer.backendKey, #"{"groups":["\#(String(repeating: "0", count: 129))"]}"#)
            #expect(long.status == 201, "\(long.text)")
            let many = (0..<33).map { "\"g\($0)\"" }.joined(separator: ",")
            let tooMany = try await http.post("/v1/users/ava/app-tokens", key: TestServer.backendKey, #"{"groups":[\#(many)]}"#)
            #expect(tooMany.status == 400, "\(tooMany.text)")
            let control = try await http.post("/v1/users/ava/app-tokens", key: TestServer.backendKey, #"{"groups":["a\u0001"]}"#)
            #expect(control.status == 400 && control.errorField == "groups[0]", "\(control.text)")
        }
    }
}
