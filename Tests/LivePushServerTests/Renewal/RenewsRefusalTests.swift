import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// `renews` in a registration names the activity this one takes over from; one it cannot take over is
/// refused with 409 and the reason (found by the fuzz run: it was a 400 for a well-formed request, and a
/// 404 the contract did not list).
@Suite struct RenewsRefusalTests {
    @Test func renewsMustNameAnotherActivityOfTheUser() async throws {
        try await RenewalHarness.run(.sqlite) { world, _ in
            _ = try await world.startFirstActivity()
            let token = String(repeating: "ab", count: 32)
            let refusals: [(renews: String, rule: String)] = [("successor", "self"), ("nobody-has-this", "exists")]
            for (renews, rule) in refusals {
                let answer = try await world.register("successor", token: token, extra: #","renews":"\#(renews)""#)
                #expect(answer.status == 409, "renews \(renews): \(answer.text)")
                #expect(answer.json?["error"]?["field"] == "renews" && answer.json?["error"]?["rule"] == .string(rule), "\(answer.text)")
            }
            // Nothing was registered by the refused requests.
            let missing = try await world.server.http.get("/v1/activities/successor", key: TestServer.backendKey)
            #expect(missing.status == 404)
        }
    }
}

/// Issue 30, finding 3: `renews` links only an active activity of the same user whose renewal the
/// server started and is still open; no cycles; a send by any old id follows one link.
@Suite struct RenewsLinkRulesTests {
    static func register(_ harness: TestServer, _ id: String, user: String = "u1", _ extra: String = "") async throws -> TestResponse {
        let token = IdentityTests.hex(UInt8(truncatingIfNeeded: id.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        return try await harness.http.post(
            "/v1/activities", key: TestServer.appKey,
            #"{"activityId":"\#(id)","pushToken":"\#(token)","bundleId":"com.example.rangers","attributesType":"AdventureAttributes","environment":"sandbox","userId":"\#(user)"\#(extra)}"#
        )
    }

    static let plan = #","renewal":\#(RenewalHarness.renewal)"#

    @Test(arguments: TestDatabase.available)
    func renewsLinksOnlyAStartedOpenRenewalOfTheSameUser(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            func refused(_ answer: TestResponse, _ rule: String, _ what: String) {
                #expect(answer.status == 409 && answer.errorField == "renews" && answer.errorRule == rule, "\(what): \(answer.text)")
            }
            // Never started (waiting): refused, and the old activity keeps running.
            #expect(try await Self.register(harness, "w1", Self.plan).status == 201)
            refused(try await Self.register(harness, "w2", #","renews":"w1""#), "open", "a waiting renewal")
            #expect(try await harness.store.activity(id: "w1")?.state == .active)
            #expect(try await harness.store.activity(id: "w2") == nil)

            // Started, but the app ended the old activity since.
            #expect(try await Self.register(harness, "e1", Self.plan).status == 201)
            #expect(try await harness.store.markRenewalStarting(activityID: "e1", tokenIDs: [], at: Date()))
            #expect(try await harness.http.post("/v1/activities/e1/ended", key: TestServer.appKey, "{}").status == 200)
            refused(try await Self.register(harness, "e2", #","renews":"e1""#), "open", "an ended activity")

            // Another user's started renewal: answered like a missing one.
            #expect(try await Self.register(harness, "o1", Self.plan).status == 201)
            #expect(try await harness.store.markRenewalStarting(activityID: "o1", tokenIDs: [], at: Date()))
            refused(try await Self.register(harness, "o2", user: "u2", #","renews":"o1""#), "exists", "another user's")

            // A cycle: loop-c2 takes over loop-c1, then loop-c1 names loop-c2.
            #expect(try await Self.register(harness, "loop-c1", Self.plan).status == 201)
            #expect(try await harness.store.markRenewalStarting(activityID: "loop-c1", tokenIDs: [], at: Date()))
            #expect(try await Self.register(harness, "loop-c2", #","renews":"loop-c1""#).status == 201)
            #expect(try await harness.store.renewal(activityID: "loop-c1")?.renewedBy == "loop-c2")
            #expect(try await harness.store.markRenewalStarting(activityID: "loop-c2", tokenIDs: [], at: Date()))
            refused(try await Self.register(harness, "loop-c1", #","renews":"loop-c2""#), "chain", "a cycle")
            #expect(try await harness.store.renewal(activityID: "loop-c2")?.state == .starting, "loop-c2's renewal stays open")
            #expect(try await harness.store.activity(id: "loop-c2")?.state == .active)
        }
    }

    /// A chain of 8 renewals: a send by the first id reaches the newest, following one link.
    @Test func aSendByAnyOldIDFollowsOneLink() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender)) { harness in
            let chain = (0..<8).map { "chain-\($0)" }
            #expect(try await Self.register(harness, chain[0], Self.plan).status == 201)
            for (old, new) in zip(chain, chain.dropFirst()) {
                #expect(try await harness.store.markRenewalStarting(activityID: old, tokenIDs: [], at: Date()))
                #expect(try await Self.register(harness, new, #","renews":"\#(old)""#).status == 201)
            }
            for old in chain.dropLast() {
                #expect(try await harness.store.renewal(activityID: old)?.renewedBy == chain.last, "\(old) links to the newest")
            }
            let newest = try #require(try await harness.store.activity(id: chain[7]))
            for old in [chain[0], chain[3], chain[6]] {
                let sent = try await harness.http.post("/v1/activities/\(old)/update", key: TestServer.backendKey, #"{"contentState":{"n":1}}"#)
                #expect(sent.status == 202, "\(old): \(sent.text)")
            }
            #expect(await eventually { sender.requests.filter { $0.token == newest.pushToken }.count >= 3 })
        }
    }
}
