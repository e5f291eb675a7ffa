import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// `POST /v1/updates`: many activities, each with its own content-state, in one request and one transaction.
@Suite struct BatchUpdateTests {
    @Test(arguments: TestDatabase.available)
    func eachItemIsAcceptedOrRefusedOnItsOwnAndTheAcceptedOnesArrive(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let panda = try await sim.startActivity(name: "panda")
            let owl = try await sim.startActivity(name: "owl")
            let fox = try await sim.startActivity(name: "fox")
            for created in [panda, owl, fox] { try await server.register(created) }
            let body = """
                {"updates":[
                  {"activityId":"\(panda.id)","event":"update","contentState":{"hp":1},"priority":10},
                  {"activityId":"\(owl.id)","event":"end","contentState":{"hp":0},"dismissalDate":"+10m"},
                  {"activityId":"nobody","event":"update","contentState":{"hp":5}},
                  {"activityId":"\(panda.id)","event":"update","contentState":{"hp":2}},
                  {"activityId":"\(fox.id)","event":"update","contentState":{"hp":3},"alert":{"title":"Fox","body":"found a key"}}
                ]}
                """
            let response = try await server.http.post("/v1/updates", key: TestServer.backendKey, body)
            #expect(response.status == 202, "\(response.text)")
            let answer = try #require(response.json)
            #expect(answer["accepted"]?.numberValue == 3 && answer["refused"]?.numberValue == 2)
            let results = try #require(answer["results"]?.arrayValue)
            #expect(results.map { $0["status"]?.stringValue } == ["accepted", "accepted", "refused", "refused", "accepted"])
            #expect(results.map { $0["index"]?.numberValue } == [0, 1, 2, 3, 4])
            #expect(results[2]["error"]?["status"]?.numberValue == 404 && results[2]["error"]?["rule"]?.stringValue == "exists")
            #expect(results[2]["error"]?["field"]?.stringValue == "activityId")
            #expect(results[3]["error"]?["status"]?.numberValue == 400 && results[3]["error"]?["rule"]?.stringValue == "duplicate")
            #expect(results[0]["pushId"]?.stringValue != nil && results[0]["error"] == nil)

            #expect(try await eventually { try await sim.contentState(panda.id)["hp"]?.numberValue == 1 })
            #expect(try await eventually { try await sim.contentState(fox.id)["hp"]?.numberValue == 3 })
            #expect(try await eventually { try await sim.simulator.world.activity(id: owl.id).state == .ended })
            #expect(try await server.store.activity(id: owl.id)?.state == .ended)
            #expect(try await server.store.activity(id: fox.id)?.lastContentState?["hp"]?.numberValue == 3)
            let pandaID = try #require(results[0]["pushId"]?.stringValue)
            #expect(
                try await eventually {
                    try await server.store.deliveries(activityID: panda.id, limit: 1).first.map {
                        $0.pushID.lowercased == pandaID && $0.outcome == .accepted
                    }
                        ?? false
                })
        }
    }

    @Test func aBatchTheContractRefusesIsRefusedWholeNamingTheItem() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { server in
            let register = try await server.http.post(
                "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a1", token: String(repeating: "ab", count: 32)))
            #expect(register.status == 201)
            let cases: [(body: String, field: String, rule: String)] = [
                (
                    #"{"updates":[{"activityId":"a1","event":"update","contentState":{"hp":1}},{"activityId":"a1","event":"update"}]}"#,
                    "updates[1].contentState", "required"
                ),
                (
                    #"{"updates":[{"activityId":"a1","event":"update","contentState":{},"dismissalDate":"+1m"}]}"#, "updates[0].dismissalDate",
                    "endOnly"
                ),
                (#"{"updates":[{"activityId":"a1","event":"update","contentState":null}]}"#, "updates[0].contentState", "required"),
                (#"{"updates":[]}"#, "updates", "minCount"),
                (#"{"updates":[{"activityId":"a1","event":"start","contentState":{}}]}"#, "updates[0].event", "oneOf"),
            ]
            for (body, field, rule) in cases {
                let response = try await server.http.post("/v1/updates", key: TestServer.backendKey, body)
                #expect(response.status == 400 && response.errorField == field && response.errorRule == rule, "\(body) → \(response.text)")
            }
            let many = (0...1000).map { _ in #"{"activityId":"a1","event":"update","contentState":{"hp":1}}"# }.joined(separator: ",")
            let tooMany = try await server.http.post("/v1/updates", key: TestServer.backendKey, #"{"updates":[\#(many)]}"#)
            #expect(tooMany.status == 400 && tooMany.errorField == "updates" && tooMany.errorRule == "maxCount", "\(tooMany.text)")
            #expect(try await server.store.outboxDepth() == 0, "nothing of a refused batch is stored")
            // As in POST /v1/activities/{id}/end, an end's contentState may be null: the activity keeps its last state.
            let endWithNull = try await server.http.post(
                "/v1/updates", key: TestServer.backendKey, #"{"updates":[{"activityId":"a1","event":"end","contentState":null}]}"#)
            #expect(endWithNull.status == 202 && endWithNull.json?["accepted"]?.numberValue == 1, "\(endWithNull.text)")
            let appKey = try await server.http.post("/v1/updates", key: TestServer.appKey, #"{"updates":[]}"#)
            #expect(appKey.status == 403 || appKey.status == 401, "an app credential cannot send")
        }
    }

    @Test func aBatchUpdateReplacesAPendingRoutineUpdateAndSaysSo() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { server in
            let register = try await server.http.post(
                "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a1", token: String(repeating: "ab", count: 32)))
            #expect(register.status == 201)
            let single = try await server.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
            let first = try #require(single.json?["pushIds"]?.arrayValue?.first?.stringValue)
            let batch = try await server.http.post(
                "/v1/updates", key: TestServer.backendKey, #"{"updates":[{"activityId":"a1","event":"update","contentState":{"hp":2}}]}"#)
            #expect(batch.status == 202)
            let result = try #require(batch.json?["results"]?.arrayValue?.first)
            #expect(result["replaced"]?.arrayValue?.map(\.stringValue) == [first])
            #expect(try await server.store.outboxDepth() == 1)
        }
    }

    /// Unknown, ended, renewed and good activities in one batch: each item is answered as a single send would
    /// be; the renewed one's update goes to its successor, which a later item then names twice.
    @Test(arguments: TestDatabase.available)
    func unknownEndedRenewedAndGoodActivitiesAreEachAnsweredRight(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.workerCount = 0 }) { server in
            for (index, id) in ["good", "ended", "old", "new"].enumerated() {
                let token = String(repeating: String(format: "%02x", index + 1), count: 32)
                let register = try await server.http.post(
                    "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: id, token: token, userID: "u1"))
                #expect(register.status == 201, "\(register.text)")
            }
            let now = Date()
            _ = try await server.store.markEnded(activityID: "ended", at: now, dismissalDate: nil, journal: nil)
            _ = try await server.store.planRenewal(
                RenewalPlan(
                    activityID: "old", userID: "u1", attributesType: "AdventureAttributes", renewBefore: 3600, attributes: [:], alert: [:],
                    renews: nil))
            #expect(try await server.store.markRenewalStarting(activityID: "old", tokenIDs: [], at: now))
            #expect(try await server.store.linkRenewal(activityID: "old", to: "new", at: now, journal: nil) != nil)
            _ = try await server.store.markEnded(activityID: "old", at: now, dismissalDate: nil, journal: nil)
            let body = """
                {"updates":[
                  {"activityId":"nobody","event":"update","contentState":{"hp":1}},
                  {"activityId":"ended","event":"update","contentState":{"hp":2}},
                  {"activityId":"old","event":"update","contentState":{"hp":3}},
                  {"activityId":"good","event":"update","contentState":{"hp":4}},
                  {"activityId":"new","event":"update","contentState":{"hp":5}}
                ]}
                """
            let response = try await server.http.post("/v1/updates", key: TestServer.backendKey, body)
            #expect(response.status == 202, "\(response.text)")
            let results = try #require(response.json?["results"]?.arrayValue)
            #expect(results.map { $0["status"]?.stringValue } == ["refused", "refused", "accepted", "accepted", "refused"])
            #expect(results.map { $0["error"]?["rule"]?.stringValue } == ["exists", "active", nil, nil, "duplicate"])
            #expect(results.map { $0["error"]?["status"]?.numberValue } == [404, 409, nil, nil, 400])
            #expect(results[2]["activityId"]?.stringValue == "new", "the renewed activity's update goes to its successor")
            #expect(try await server.store.activity(id: "new")?.lastContentState?["hp"]?.numberValue == 3)
            #expect(try await server.store.activity(id: "good")?.lastContentState?["hp"]?.numberValue == 4)
            #expect(try await server.store.outboxDepth() == 2)
        }
    }
}
