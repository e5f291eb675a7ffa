import APNsCore
import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// One token value, one holder, across both kinds of token (issue 30, finding 4): an activity's update
/// token that is another user's push-to-start token is refused, and the reverse; APNs' refusal of a
/// value marks it invalid wherever it is stored. On SQLite and PostgreSQL.
@Suite struct TokenHolderTests {
    static let hex = IdentityTests.hex

    static func storePushToStart(_ http: TestHTTP, _ token: String, device: String, value: String) async throws -> TestResponse {
        try await http.put(
            "/v1/push-to-start-tokens", key: token,
            #"{"deviceId":"\#(device)","bundleId":"com.example.rangers","attributesType":"T","environment":"sandbox","token":"\#(value)"}"#)
    }

    /// Bob registers Alice's push-to-start token as his activity's update token, rotates his activity's
    /// token to it, and stores Alice's update token as his push-to-start token: each is 409
    /// `heldByAnotherUser`, without naming Alice, and nothing of Bob's holds her values.
    @Test(arguments: TestDatabase.available)
    func anotherUsersTokenOfEitherKindIsRefused(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let (alice, bob) = try await (harness.mintUserToken("alice"), harness.mintUserToken("bob"))
            let aliceStart = Self.hex(0x41)
            let aliceUpdate = Self.hex(0x42)
            #expect(try await Self.storePushToStart(http, alice, device: "alice-phone", value: aliceStart).status == 200)
            #expect(try await http.post("/v1/activities", key: alice, registrationJSON(activityID: "alice-1", token: aliceUpdate)).status == 201)

            let asUpdate = try await http.post("/v1/activities", key: bob, registrationJSON(activityID: "bob-1", token: aliceStart))
            #expect(asUpdate.status == 409 && asUpdate.errorField == "pushToken" && asUpdate.errorRule == "heldByAnotherUser", "\(asUpdate.text)")
            #expect(!asUpdate.text.contains("alice"), "the holder is not named: \(asUpdate.text)")
            #expect(try await harness.store.activity(id: "bob-1") == nil)

            #expect(try await http.post("/v1/activities", key: bob, registrationJSON(activityID: "bob-2", token: Self.hex(0x43))).status == 201)
            let rotated = try await http.put("/v1/activities/bob-2/push-token", key: bob, #"{"pushToken":"\#(aliceStart)"}"#)
            #expect(rotated.status == 409 && rotated.errorField == "pushToken" && rotated.errorRule == "heldByAnotherUser", "\(rotated.text)")
            #expect(try await harness.store.activity(id: "bob-2")?.pushToken.hex == Self.hex(0x43))

            let asStart = try await Self.storePushToStart(http, bob, device: "bob-phone", value: aliceUpdate)
            #expect(asStart.status == 409 && asStart.errorField == "token" && asStart.errorRule == "heldByAnotherUser", "\(asStart.text)")
            #expect(try await harness.store.pushToStartTokens(forUser: "bob", attributesType: "T").isEmpty)

            // The holder itself may hold its value as both kinds (one principal).
            #expect(try await Self.storePushToStart(http, alice, device: "alice-phone-2", value: aliceUpdate).status == 200)
        }
    }

    /// APNs refuses a value for good: the activity holding it as its update token and the push-to-start
    /// token holding the same value are both marked invalid, whichever the push went to.
    @Test(arguments: TestDatabase.available)
    func anAPNsRefusalInvalidatesTheValueWhereverItIsStored(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            let http = harness.http
            let alice = try await harness.mintUserToken("alice")
            let value = Self.hex(0x51)
            #expect(try await Self.storePushToStart(http, alice, device: "alice-phone", value: value).status == 200)
            #expect(try await http.post("/v1/activities", key: alice, registrationJSON(activityID: "alice-1", token: value)).status == 201)
            sender.enqueue([.success(APNsResponse(status: 410, apnsID: "x", reason: .unregistered, timestamp: Date()))])
            let sent = try await http.post("/v1/activities/alice-1/update", key: TestServer.backendKey, #"{"contentState":{"a":1}}"#)
            #expect(sent.status == 202, "\(sent.text)")
            let invalidEverywhere = await eventually {
                let activity = try? await harness.store.activity(id: "alice-1")
                let start = try? await harness.store.pushToStartTokens(forUser: "alice", attributesType: "T").first
                return activity?.tokenState.isValid == false && start?.tokenState.isValid == false
            }
            #expect(invalidEverywhere, "the activity's token and the push-to-start token are both invalid")
        }
    }
}
