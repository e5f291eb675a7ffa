import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// Live Activities as resources over real sockets, against the simulator: the test plays the app (it
/// stores the push-to-start token and registers what the iPhone runs, as LivePushKit does) and the
/// backend (PUT, GET, DELETE under one key).
@Suite struct LiveActivityResourceTests {
    static let path = "/v1/users/\(RenewalHarness.user)/live-activities/quest-1"

    /// Stores the user's push-to-start token (as the app does) and starts the resource with `hp`: the PUT
    /// answers `started`.
    static func start(_ world: RenewalHarness, hp: Int) async throws {
        try await world.storePushToStartToken()
        #expect(try await put(world, hp: hp).json?["outcome"] == "started")
    }

    /// The backend's PUT of the resource under `key` with `hp` (and `extra` fields) for the harness's user.
    static func put(_ world: RenewalHarness, key: String = "quest-1", hp: Int, extra: String = "") async throws -> TestResponse {
        try await world.server.http.put(
            "/v1/users/\(RenewalHarness.user)/live-activities/\(key)", key: TestServer.backendKey, body(hp: hp, extra: extra))
    }

    /// The resource under `key` as the backend reads it.
    static func resource(_ world: RenewalHarness, key: String) async throws -> JSONValue? {
        try await world.server.http.get("/v1/users/\(RenewalHarness.user)/live-activities/\(key)", key: TestServer.backendKey).json
    }

    static func body(hp: Int, alert: Bool = true, extra: String = "") -> String {
        #"{"attributesType":"AdventureAttributes","attributes":{"hero":"Panda"},"contentState":{"hp":\#(hp)}"#
            + (alert ? #","alert":{"title":"The quest begins"}"# : "") + extra + "}"
    }

    @Test(arguments: TestDatabase.available)
    func aPutBeforeTheAppRegisteredStartsQueuesThenUpdatesAndDeleteEnds(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, _ in
            try await world.storePushToStartToken()
            let http = world.server.http
            // Nothing runs and the app registered nothing: the PUT starts one by push-to-start.
            let started = try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 10))
            #expect(started.status == 200, "\(started.text)")
            #expect(started.json?["outcome"] == "started" && started.json?["state"] == "starting")
            #expect(started.json?["pushIds"]?.arrayValue?.count == 1)
            let shown = try await eventually { try await world.activeOnDevice().count == 1 }
            #expect(shown, "the push-to-start reached the iPhone")
            let activity = try #require(try await world.activeOnDevice().first)
            #expect(activity.contentState["hp"] == 10 && activity.attributes["hero"] == "Panda")
            #expect(activity.attributes["livePushKey"] == "quest-1", "the start carries the key for the app to report")

            // The token has not arrived: the newest state is kept, not sent.
            let queued = try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 9))
            #expect(queued.json?["outcome"] == "queued" && queued.json?["pushIds"] == [], "\(queued.text)")
            #expect(try await http.get(Self.path, key: TestServer.backendKey).json?["pending"] == true)
            let again = try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 9))
            #expect(again.json?["outcome"] == "unchanged", "\(again.text)")

            // The app registers the activity the start began (no key reported): the kept state is shown.
            let token = try #require(activity.pushToken, "input-push-token gave the started activity an update token")
            #expect(try await world.register(activity.activityID, token: token).status == 201)
            let delivered = try await eventually { try await world.activeOnDevice().first?.contentState["hp"] == 9 }
            #expect(delivered, "the queued state reached the iPhone once the app registered the activity")
            let resource = try await http.get(Self.path, key: TestServer.backendKey).json
            #expect(resource?["state"] == "active" && resource?["pending"] == false)
            #expect(resource?["activityIds"] == .array([.string(activity.activityID)]))

            // Later PUTs update the running activity; the same one again sends nothing.
            let updated = try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 8))
            #expect(updated.json?["outcome"] == "updated" && updated.json?["activityId"]?.stringValue == activity.activityID, "\(updated.text)")
            #expect(updated.json?["pushIds"]?.arrayValue?.count == 1)
            let updatedShown = try await eventually { try await world.activeOnDevice().first?.contentState["hp"] == 8 }
            #expect(updatedShown)
            let steps = try await http.get(Self.path, key: TestServer.backendKey).json?["history"]?.arrayValue?.count
            let same = try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 8))
            #expect(same.json?["outcome"] == "unchanged" && same.json?["pushIds"] == [], "\(same.text)")
            #expect(try await http.get(Self.path, key: TestServer.backendKey).json?["history"]?.arrayValue?.count == steps, "nothing recorded")

            // DELETE ends it, with a final state.
            let ended = try await http.request("DELETE", Self.path, key: TestServer.backendKey, json: #"{"contentState":{"hp":0},"dismissalDate":0}"#)
            #expect(ended.status == 200 && ended.json?["outcome"] == "ended" && ended.json?["state"] == "ended", "\(ended.text)")
            let gone = try await eventually { try await world.activeOnDevice().isEmpty }
            #expect(gone, "the activity ended on the iPhone")
            let endedAgain = try await http.request("DELETE", Self.path, key: TestServer.backendKey)
            #expect(endedAgain.json?["outcome"] == "unchanged", "\(endedAgain.text)")
            let history = try await http.get(Self.path, key: TestServer.backendKey).json?["history"]?.arrayValue?.compactMap {
                $0["outcome"]?.stringValue
            }
            #expect(history == ["ended", "updated", "delivered", "registered", "queued", "started"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func anotherUsersResourceIsNotReachable(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, _ in
            try await Self.start(world, hp: 1)
            let http = world.server.http
            let other = "/v1/users/u2/live-activities/quest-1"
            #expect(try await http.get(other, key: TestServer.backendKey).status == 404)
            #expect(try await http.request("DELETE", other, key: TestServer.backendKey).status == 404)
            // u2 has no push-to-start token: its own resource under the same key is refused, u1's untouched.
            let refused = try await http.put(other, key: TestServer.backendKey, Self.body(hp: 5))
            #expect(refused.json?["outcome"] == "refused" && refused.json?["reason"] == "noPushToStartToken", "\(refused.text)")
            #expect(try await http.get(Self.path, key: TestServer.backendKey).json?["contentState"]?["hp"] == 1)
            // The console reads it with the operator's key (its history included); the backend's key does not reach the console's route.
            let console = "/v1/operator/users/\(RenewalHarness.user)/live-activities/quest-1"
            let shown = try await http.get(console, key: TestServer.operatorKey)
            #expect(shown.status == 200 && shown.json?["history"]?.arrayValue?.first?["outcome"] == "started", "\(shown.text)")
            #expect(try await http.get(console, key: TestServer.backendKey).status == 403)
            // The app's credential cannot reach the backend's resources.
            #expect(try await http.get(Self.path, key: TestServer.appKey).status == 403)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aResourceThatCannotStartIsRefusedAndReported(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, receiver in
            let http = world.server.http
            let noAlert = try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 1, alert: false))
            #expect(noAlert.status == 400 && noAlert.errorField == "alert", "\(noAlert.text)")
            let refused = try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 1))
            #expect(refused.status == 200 && refused.json?["outcome"] == "refused" && refused.json?["reason"] == "noPushToStartToken")
            #expect(try await http.get(Self.path, key: TestServer.backendKey).json?["state"] == "refused")
            let reported = await eventually { receiver.bodies.contains { $0["event"] == "liveActivity.notStarted" } }
            #expect(reported)
            let event = receiver.bodies.first { $0["event"] == "liveActivity.notStarted" }
            #expect(event?["key"] == "quest-1" && event?["userId"]?.stringValue == RenewalHarness.user && event?["reason"] == "noPushToStartToken")
            // Once the app stored a token, the same PUT starts it.
            try await Self.start(world, hp: 1)
        }
    }

    /// An update the push service refuses after the PUT was written (here a payload over APNs' limit)
    /// leaves the resource as it was: the same PUT again is refused again, never `unchanged`.
    @Test(arguments: TestDatabase.available)
    func anUpdateThatCannotBeSentLeavesTheResourceAsItWas(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, _ in
            try await Self.start(world, hp: 10)
            let http = world.server.http
            let shown = try await eventually { try await world.activeOnDevice().count == 1 }
            #expect(shown)
            let activity = try #require(try await world.activeOnDevice().first)
            #expect(try await world.register(activity.activityID, token: try #require(activity.pushToken)).status == 201)

            let large = Self.body(hp: 11, extra: #","relevanceScore":1"#).replacingOccurrences(
                of: #""hp":11"#, with: #""hp":11,"log":""# + String(repeating: "x", count: 5_000) + #"""#)
            for attempt in 1...2 {
                let refused = try await http.put(Self.path, key: TestServer.backendKey, large)
                #expect(refused.status == 400 && refused.errorRule == "maxPayloadSize", "attempt \(attempt): \(refused.text)")
            }
            let resource = try await http.get(Self.path, key: TestServer.backendKey).json
            #expect(resource?["contentState"]?["hp"] == 10, "\(String(describing: resource))")
            #expect(try await http.put(Self.path, key: TestServer.backendKey, Self.body(hp: 12)).json?["outcome"] == "updated")
        }
    }
}

/// Which resource a registration is linked to when two starts of one type wait for the same user.
@Suite struct LiveActivityResourceLinkTests {
    @Test(arguments: TestDatabase.available)
    func theReportedKeyLinksItsResourceAndOtherwiseTheOldestStartWaiting(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, _ in
            try await world.storePushToStartToken()
            for key in ["first", "second"] {
                #expect(try await LiveActivityResourceTests.put(world, key: key, hp: 1).json?["outcome"] == "started")
            }
            let both = try await eventually { try await world.activeOnDevice().count == 2 }
            #expect(both)
            let running = try await world.activeOnDevice()
            let second = try #require(running.first { $0.attributes["livePushKey"] == "second" })
            let first = try #require(running.first { $0.attributes["livePushKey"] == "first" })
            // The second start's activity registers first, naming its key: linked to "second", not to the oldest.
            let named = try await world.register(second.activityID, token: try #require(second.pushToken), extra: #","liveActivityKey":"second""#)
            #expect(named.status == 201, "\(named.text)")
            #expect(try await LiveActivityResourceTests.resource(world, key: "second")?["activityId"]?.stringValue == second.activityID)
            #expect(try await LiveActivityResourceTests.resource(world, key: "first")?["state"] == "starting")
            // The other registers without a key: the oldest start still waiting.
            #expect(try await world.register(first.activityID, token: try #require(first.pushToken)).status == 201)
            #expect(try await LiveActivityResourceTests.resource(world, key: "first")?["activityId"]?.stringValue == first.activityID)
        }
    }
}

/// A resource that asked for renewal lives past 8 hours on the server's renewal, and follows its chain.
@Suite struct LiveActivityResourceRenewalTests {
    @Test(arguments: TestDatabase.available)
    func aResourceAskingForRenewalFollowsItsRenewedActivity(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, _ in
            try await world.storePushToStartToken()
            let http = world.server.http
            let path = LiveActivityResourceTests.path
            let renewal = #","renewal":{"renewBefore":"7h45m"}"#
            let started = try await LiveActivityResourceTests.put(world, hp: 10, extra: renewal)
            #expect(started.json?["outcome"] == "started", "\(started.text)")
            let arrived = try await eventually { try await world.activeOnDevice().count == 1 }
            #expect(arrived)
            let first = try #require(try await world.activeOnDevice().first)
            #expect(try await world.register(first.activityID, token: try #require(first.pushToken)).status == 201)
            #expect(try await world.detail(first.activityID)["renewal"]?["state"] == "waiting", "the link planned its renewal")
            for _ in 1...31 { try await world.advance(minutes: 15) }  // 7h45m: the successor's start arrives
            let renewing = try await eventually(timeout: .seconds(20)) { try await world.activeOnDevice().count == 2 }
            #expect(renewing, "the renewal's start reached the iPhone")
            let successor = try #require(try await world.activeOnDevice().last)
            #expect(successor.attributes["livePushKey"] == "quest-1" && successor.contentState["hp"] == 10)
            #expect(try await world.register(successor.activityID, token: try #require(successor.pushToken)).status == 201)
            let oldEnded = try await eventually(timeout: .seconds(20)) { try await world.activeOnDevice().count == 1 }
            #expect(oldEnded, "the old activity was ended once the new one was linked")
            // The next PUT goes to the activity that took over.
            let updated = try await LiveActivityResourceTests.put(world, hp: 9, extra: renewal)
            #expect(updated.json?["outcome"] == "updated" && updated.json?["activityId"]?.stringValue == successor.activityID, "\(updated.text)")
            let shown = try await eventually { try await world.activeOnDevice().first?.contentState["hp"] == 9 }
            #expect(shown)
            let resource = try await http.get(path, key: TestServer.backendKey).json
            #expect(resource?["activityIds"] == .array([.string(first.activityID), .string(successor.activityID)]))
            #expect(resource?["renewBefore"] == "7h45m")
            #expect(resource?["history"]?.arrayValue?.contains { $0["outcome"] == "renewed" } == true)
        }
    }
}
