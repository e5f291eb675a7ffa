import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// `Idempotency-Key` on the send routes: a retry of the same request within a day answers the first
/// answer and sends nothing more; another request under the same key is refused. On both stores.
@Suite struct IdempotencyTests {
    static func send(_ harness: TestServer, _ path: String, key: String = TestServer.backendKey, idempotencyKey: String?, _ json: String)
        async throws -> (response: TestResponse, headers: [String: String])
    {
        try await harness.http.request("POST", path, key: key, body: Data(json.utf8), headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:])
    }

    @Test(arguments: TestDatabase.available)
    func aRetriedSendIsAnsweredAgainAndSentOnce(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            for (index, id) in ["ride-1", "ride-2"].enumerated() {
                let registered = try await harness.http.post(
                    "/v1/activities", key: TestServer.appKey,
                    registrationJSON(activityID: id, token: IdentityTests.hex(UInt8(index + 1)), groups: ["party"]))
                #expect(registered.status == 201)
            }
            let body = #"{"contentState":{"km":3},"priority":10}"#
            let first = try await Self.send(harness, "/v1/activities/ride-1/update", idempotencyKey: "retry-1", body)
            #expect(first.response.status == 202 && first.headers["idempotent-replayed"] == nil, "\(first.response.text)")
            let again = try await Self.send(harness, "/v1/activities/ride-1/update", idempotencyKey: "retry-1", body)
            #expect(again.response.status == 202 && again.headers["idempotent-replayed"] == "true")
            #expect(again.response.data == first.response.data, "the same answer: the same push ids")

            let otherBody = try await Self.send(harness, "/v1/activities/ride-1/update", idempotencyKey: "retry-1", #"{"contentState":{"km":4}}"#)
            #expect(
                otherBody.response.status == 422 && otherBody.response.errorRule == "keyReused" && otherBody.response.errorField == "Idempotency-Key",
                "\(otherBody.response.text)")
            let otherRoute = try await Self.send(harness, "/v1/activities/ride-2/update", idempotencyKey: "retry-1", body)
            #expect(otherRoute.response.status == 422)

            // A refused request frees its key for the corrected one.
            let refused = try await Self.send(harness, "/v1/groups/party/update", idempotencyKey: "group-1", #"{"contentState":7}"#)
            #expect(refused.response.status == 400)
            let group = try await Self.send(harness, "/v1/groups/party/update", idempotencyKey: "group-1", #"{"contentState":{"km":5}}"#)
            #expect(group.response.status == 202, "\(group.response.text)")
            // Its pushes go out before the next update to ride-2: a group push is coalesced when its member has
            // a push accepted after the group send (GroupSendPlan), so a page picked up after that update
            // would not send ride-2's.
            let finished = try await harness.finishedGroupSend(group.response, timeout: .seconds(60))
            #expect(finished["state"]?.stringValue == "finished" && finished["counts"]?["sent"] == 2, "\(finished)")

            // Keys are per principal: another backend key has its own.
            let otherKey = "lp_backend_" + String(repeating: "b", count: 43)
            _ = try await harness.store.createAPIKey(name: "other", scope: .backend, sha256Hash: APIKeys.hash(otherKey), at: Date())
            let mine = try await Self.send(harness, "/v1/activities/ride-2/update", key: otherKey, idempotencyKey: "retry-1", body)
            #expect(mine.response.status == 202 && mine.headers["idempotent-replayed"] == nil)

            for bad in [String(repeating: "k", count: 256), "caf\u{e9}"] {
                let response = try await Self.send(harness, "/v1/activities/ride-1/update", idempotencyKey: bad, body)
                #expect(response.response.status == 400 && response.response.errorField == "Idempotency-Key", "\(response.response.text)")
            }

            // Sent once each: ride-1 got the first update (its retry sent nothing) and the group's; ride-2 the group's and mine.
            #expect(await eventually { sender.requests.count == 4 }, "\(sender.requests.count) pushes")
            try await harness.restart()
            let afterRestart = try await Self.send(harness, "/v1/activities/ride-1/update", idempotencyKey: "retry-1", body)
            #expect(
                afterRestart.response.data == first.response.data && afterRestart.headers["idempotent-replayed"] == "true",
                "answers are kept in the store")
            // A replay enqueues nothing: ride-1 has its two pushes, sent, and nothing waiting.
            let ride1 = try await harness.http.get("/v1/activities/ride-1", key: TestServer.backendKey)
            #expect(
                ride1.json?["deliveries"]?.arrayValue?.count == 2 && ride1.json?["pending"]?.arrayValue?.isEmpty == true,
                "a replay sends nothing: \(ride1.text)")
            #expect(sender.requests.count == 4, "a replay sends nothing")
        }
    }

    /// Every send route takes the key: activity update and end, group update and end, start by user,
    /// channel update and end. The retry of each answers the first answer and sends nothing more.
    @Test(arguments: TestDatabase.available)
    func everySendRouteReplaysItsFirstAnswerAndSendsOnce(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            let http = harness.http
            for (index, id) in ["solo", "member"].enumerated() {
                let registered = try await http.post(
                    "/v1/activities", key: TestServer.appKey,
                    registrationJSON(activityID: id, token: IdentityTests.hex(UInt8(index + 20)), groups: index == 1 ? ["crew"] : []))
                #expect(registered.status == 201, "\(registered.text)")
            }
            let token =
                #"{"userId":"fan","deviceId":"phone","bundleId":"com.example.rangers","attributesType":"T","environment":"sandbox","token":"\#(IdentityTests.hex(30))"}"#
            #expect(try await http.put("/v1/push-to-start-tokens", key: TestServer.appKey, token).status == 200)
            let created = try await http.post(
                "/v1/channels", key: TestServer.backendKey, #"{"name":"match","bundleId":"com.example.rangers","storagePolicy":0}"#)
            let channel = try #require(created.json?["id"]?.stringValue, "\(created.text)")

            let routes: [(path: String, body: String)] = [
                ("/v1/activities/solo/update", #"{"contentState":{"hp":1}}"#),
                ("/v1/groups/crew/update", #"{"contentState":{"hp":2}}"#),
                ("/v1/channels/\(channel)/update", #"{"contentState":{"hp":3}}"#),
                ("/v1/users/fan/start", #"{"contentState":{"hp":4},"attributesType":"T","attributes":{},"alert":{"title":"Go"}}"#),
                ("/v1/groups/crew/end", #"{"contentState":{"hp":5}}"#),
                ("/v1/activities/solo/end", #"{"contentState":{"hp":6}}"#),
                ("/v1/channels/\(channel)/end", #"{"contentState":{"hp":7}}"#),
            ]
            for (index, route) in routes.enumerated() {
                let key = "route-\(index)"
                let first = try await Self.send(harness, route.path, idempotencyKey: key, route.body)
                #expect(first.response.status == 202 && first.headers["idempotent-replayed"] == nil, "\(route.path): \(first.response.text)")
                let again = try await Self.send(harness, route.path, idempotencyKey: key, route.body)
                #expect(again.response.status == 202 && again.headers["idempotent-replayed"] == "true", "\(route.path): \(again.response.text)")
                #expect(again.response.data == first.response.data, "\(route.path): the same answer")
                // Each push goes out before the next route's (an end would otherwise replace an unsent update).
                #expect(
                    await eventually { sender.requests.count + sender.broadcasts.count == index + 1 },
                    "\(route.path): \(sender.requests.count) pushes, \(sender.broadcasts.count) broadcasts")
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(sender.requests.count + sender.broadcasts.count == routes.count, "a replay sends nothing")
        }
    }

    @Test(arguments: TestDatabase.available)
    func concurrentRetriesSendOnce(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            _ = try await harness.http.post(
                "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "c-1", token: IdentityTests.hex(9)))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await Self.send(harness, "/v1/activities/c-1/update", idempotencyKey: "same", #"{"contentState":{"n":1}}"#).response
                            .status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 202 || $0 == 409 } && statuses.contains(202), "\(statuses)")
            #expect(await eventually { sender.requests.count == 1 })
            try await Task.sleep(for: .milliseconds(200))
            #expect(sender.requests.count == 1, "one push whatever the concurrency")
        }
    }
}
