import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// No silent drops: with a ContentState shape stored for an app's attributes type, every send path refuses
/// (422, naming the field and the rule) what the device's decoder would drop, before anything is stored.
@Suite struct ContentStateGateTests {
    /// The app's ContentState: `hp: Double`, `status: String`, `note: String?`.
    static let schema = ContentStateSchema(
        fields: ["hp": FieldType(.number), "status": FieldType(.string), "note": FieldType(.string, optional: true)])
    static let shapePath = "/v1/apps/com.example.rangers/attributes-types/AdventureAttributes/content-state-shape"
    static var shapeJSON: String { ContentStateShape(schema).json.description }

    /// One table, run through the server and straight into the simulator: the server refuses exactly what
    /// the simulated iPhone drops.
    static let cases: [(name: String, state: JSONValue, refusal: (field: String, rule: String)?)] = [
        ("valid", ["hp": 1, "status": "ok"], nil),
        ("extra key", ["hp": 2, "status": "ok", "bonus": 3], nil),
        ("null optional", ["hp": 3, "status": "ok", "note": nil], nil),
        ("given optional", ["hp": 4, "status": "ok", "note": "hi"], nil),
        ("missing key", ["status": "ok"], ("contentState.hp", "missing")),
        ("misspelt key", ["hP": 5, "status": "ok"], ("contentState.hp", "missing")),
        ("wrong type", ["hp": "full", "status": "ok"], ("contentState.hp", "type")),
        ("null for non-optional", ["hp": 6, "status": nil], ("contentState.status", "null")),
    ]

    @Test(arguments: TestDatabase.available)
    func theServerRefusesWhatTheSimulatedIPhoneDrops(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let world = sim.simulator.world
            let start = ActivityRequest(
                attributesType: "AdventureAttributes", attributes: [:], contentState: ["hp": 0, "status": "start"],
                contentStateSchema: Self.schema)
            let viaServer = try await world.startActivity(deviceID: try await sim.addIPhone(name: "server").id, start)
            let direct = try await world.startActivity(deviceID: try await sim.addIPhone(name: "direct").id, start)
            let registered = try await server.http.post(
                "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: viaServer.activityID, token: viaServer.pushToken))
            #expect(registered.status == 201, "\(registered.text)")
            let put = try await server.http.put(Self.shapePath, key: TestServer.backendKey, Self.shapeJSON)
            #expect(put.status == 200, "\(put.text)")

            var accepted = 0
            let base = sim.clock.now().timeIntervalSince1970.rounded(.down)
            for (index, (name, state, refusal)) in Self.cases.enumerated() {
                let answer = try await server.http.post(
                    "/v1/activities/\(viaServer.activityID)/update", key: TestServer.backendKey, #"{"contentState":\#(state)}"#)
                if let refusal {
                    #expect(answer.status == 422, "\(name): \(answer.text)")
                    #expect(answer.errorField == refusal.field && answer.errorRule == refusal.rule, "\(name): \(answer.text)")
                } else {
                    #expect(answer.status == 202, "\(name): \(answer.text)")
                    accepted += 1
                    let expected = accepted
                    #expect(try await eventually { try await world.activity(id: viaServer.activityID).history.count == expected }, "\(name)")
                }
                // The same content-state straight to the simulator: the iPhone's own verdict.
                let payload = LiveActivityPayload.update(
                    contentState: state, timestamp: Date(timeIntervalSince1970: base + Double(index + 1)))
                let request = try LiveActivityPush(token: direct.pushToken, bundleID: sim.bundleID, payload: payload).makeRequest()
                let count = try await world.activity(id: direct.activityID).history.count
                _ = try await sim.withClient { client in try await client.send(request) }
                #expect(try await eventually { try await world.activity(id: direct.activityID).history.count == count + 1 }, "\(name)")
                let outcome = try await world.activity(id: direct.activityID).history.last?.outcome.kind
                #expect(outcome == (refusal == nil ? .applied : .decodeFailure), "\(name): the simulated iPhone's verdict")
            }
            // The refused updates never reached the iPhone: it got the accepted ones, each applied.
            let history = try await world.activity(id: viaServer.activityID).history
            #expect(history.count == accepted)
            #expect(history.allSatisfy { $0.outcome.kind == .applied }, "\(history.map(\.outcome))")
            // The refusals are recorded: counted by field and rule, and in the activity's history.
            let counts = try await server.store.contentStateRefusalCounts(bundleIDs: nil)
            #expect(counts.map { "\($0.field) \($0.rule) \($0.refusals)" } == ["hp missing 2", "hp type 1", "status null 1"])
            #expect(try await server.store.contentStateRefusals(activityID: viaServer.activityID).count == 4)
            // The console shows the shape and the refusals by field, and the activity's refused sends.
            let console = try #require(try await server.http.get("/v1/operator/content-states", key: TestServer.operatorKey).json)
            #expect(console["shapes"]?.arrayValue?.first?["attributesType"]?.stringValue == "AdventureAttributes")
            #expect(console["refusals"]?.arrayValue?.compactMap { $0["field"]?.stringValue } == ["hp", "hp", "status"])
            let detail = try await server.http.get("/v1/operator/activities/\(viaServer.activityID)", key: TestServer.operatorKey)
            #expect(detail.json?["refusals"]?.arrayValue?.first?["field"]?.stringValue == "status", "\(detail.text)")
        }
    }

    /// The three ways the device's decoder fails, each sent on every path.
    static let badStates: [(state: String, field: String, rule: String)] = [
        (#"{"status":"ok"}"#, "contentState.hp", "missing"),
        (#"{"hp":"full","status":"ok"}"#, "contentState.hp", "type"),
        (#"{"hp":1,"status":null}"#, "contentState.status", "null"),
    ]

    /// Each path in turn, with each bad content-state: refused, naming the field and the rule; a good one (with
    /// an extra key, without the optional) passes.
    @Test func everySendPathChecksBeforeAnythingIsStored() async throws {
        try await withSimulatedServer { sim, server in
            let http = server.http
            let (backend, good) = (TestServer.backendKey, #"{"hp":1,"status":"ok","bonus":true}"#)
            let panda = try await sim.startActivity(name: "panda")
            let owl = try await sim.startActivity(name: "owl")
            for created in [panda, owl] {
                let body = registrationJSON(activityID: created.id, token: created.pushToken, groups: ["party"], userID: "ava")
                #expect(try await http.post("/v1/activities", key: TestServer.appKey, body).status == 201)
            }
            #expect(try await http.put(Self.shapePath, key: backend, Self.shapeJSON).status == 200)
            let iPhone = try await sim.addIPhone(name: "ava")
            let token = try await http.put(
                "/v1/push-to-start-tokens", key: TestServer.appKey,
                #"{"userId":"ava","deviceId":"\#(iPhone.id)","bundleId":"\#(sim.bundleID)","attributesType":"AdventureAttributes","environment":"sandbox","token":"\#(iPhone.pushToStartToken)"}"#
            )
            #expect(token.status == 200, "\(token.text)")
            let channel = try await http.post("/v1/channels", key: backend, #"{"name":"final","bundleId":"\#(sim.bundleID)","storagePolicy":0}"#)
            let channelID = try #require(channel.json?["id"]?.stringValue, "\(channel.text)")
            let start = #"{"attributesType":"AdventureAttributes","attributes":{},"alert":{"title":"Go"},"contentState":"#

            for (bad, field, rule) in Self.badStates {
                func expectRefused(_ answer: TestResponse, _ what: String) {
                    #expect(answer.status == 422 && answer.errorField == field && answer.errorRule == rule, "\(what) \(bad): \(answer.text)")
                }
                expectRefused(try await http.post("/v1/activities/\(panda.id)/update", key: backend, #"{"contentState":\#(bad)}"#), "update")
                expectRefused(try await http.post("/v1/activities/\(panda.id)/end", key: backend, #"{"contentState":\#(bad)}"#), "end")
                // A batch: the bad item alone is refused, with a single send's status.
                let batch = try await http.post(
                    "/v1/updates", key: backend,
                    #"{"updates":[{"activityId":"\#(panda.id)","event":"update","contentState":\#(good)},{"activityId":"\#(owl.id)","event":"update","contentState":\#(bad)}]}"#
                )
                #expect(batch.status == 202, "\(batch.text)")
                let results = try #require(batch.json?["results"]?.arrayValue)
                #expect(results.map { $0["status"]?.stringValue } == ["accepted", "refused"])
                let error = results[1]["error"]
                #expect(error?["status"]?.numberValue == 422 && error?["field"]?.stringValue == field && error?["rule"]?.stringValue == rule)
                // A group: refused whole.
                expectRefused(try await http.post("/v1/groups/party/update", key: backend, #"{"contentState":\#(bad)}"#), "group")
                // Push-to-start (its token's type has the shape), and a broadcast on a channel of the app.
                expectRefused(try await http.post("/v1/users/ava/start", key: backend, start + bad + "}"), "start")
                expectRefused(try await http.post("/v1/channels/\(channelID)/update", key: backend, #"{"contentState":\#(bad)}"#), "broadcast")
                // The console's test push.
                let test = try await http.post(
                    "/v1/operator/activities/\(owl.id)/test-push", key: TestServer.operatorKey,
                    #"{"confirmActivityId":"\#(owl.id)","contentState":\#(bad)}"#)
                expectRefused(test, "console test push")
            }
            #expect(try await http.post("/v1/users/ava/start", key: backend, start + good + "}").status == 202)
            #expect(try await http.post("/v1/groups/party/update", key: backend, #"{"contentState":\#(good)}"#).status == 202)

            // Nothing refused reached an iPhone: owl got only the group's good update.
            #expect(try await eventually { try await sim.contentState(owl.id)["status"]?.stringValue == "ok" })
            let owlHistory = try await sim.simulator.world.activity(id: owl.id).history
            #expect(owlHistory.count == 1 && owlHistory.allSatisfy { $0.outcome.kind == .applied }, "\(owlHistory.map(\.outcome))")
            let counts = try await server.store.contentStateRefusalCounts(bundleIDs: [sim.bundleID])
            #expect(
                counts.map { "\($0.field) \($0.rule) \($0.refusals)" } == ["hp missing 7", "hp type 7", "status null 7"],
                "update, end, batch item, group, start, broadcast, test push")
        }
    }

    @Test func aBadShapeIsRefusedNamingTheKeywordAndNoShapeMeansNoCheck() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { server in
            let http = server.http
            #expect(
                try await http.post(
                    "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a1", token: String(repeating: "ab", count: 32))
                ).status == 201)
            let none = try await http.get(Self.shapePath, key: TestServer.backendKey)
            #expect(none.status == 404, "\(none.text)")
            // No shape: nothing is checked.
            #expect(try await http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"x":1}}"#).status == 202)
            let cases: [(String, String, String)] = [
                (#"{"type":"object","properties":{"hp":{"type":"double"}}}"#, "properties.hp.type", "type"),
                (#"{"type":"object","additionalProperties":false}"#, "additionalProperties", "unknown"),
                (#"{"type":"object","properties":{"hp":{"type":[]}}}"#, "properties.hp.type", "type"),
            ]
            for (body, field, rule) in cases {
                let answer = try await http.put(Self.shapePath, key: TestServer.backendKey, body)
                #expect(answer.status == 400 && answer.errorField == field && answer.errorRule == rule, "\(body): \(answer.text)")
            }
            #expect(try await http.put(Self.shapePath, key: TestServer.appKey, Self.shapeJSON).status == 403, "a backend credential only")
            let stored = try await http.put(Self.shapePath, key: TestServer.backendKey, Self.shapeJSON)
            #expect(stored.status == 200 && stored.json?["revision"]?.numberValue == 1 && stored.json?["source"]?.stringValue == "backend")
            let read = try await http.get(Self.shapePath, key: TestServer.backendKey)
            #expect(read.json?["shape"] == Self.shapeJSON.json)
        }
    }

    /// An app's registration carries its shape: stored when none is, merged when a new version adds a property.
    @Test func registrationsTeachTheShapeAndANewVersionIsMerged() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { server in
            let http = server.http
            func register(_ id: String, _ shape: String) async throws {
                var body = registrationJSON(activityID: id, token: String(repeating: id == "v1" ? "ab" : "cd", count: 32))
                body.removeLast()
                let answer = try await http.post("/v1/activities", key: TestServer.appKey, body + #","contentStateShape":\#(shape)}"#)
                #expect(answer.status == 201, "\(answer.text)")
            }
            try await register("v1", #"{"type":"object","properties":{"hp":{"type":"number"}},"required":["hp"]}"#)
            try await register("v2", #"{"type":"object","properties":{"hp":{"type":"number"},"eta":{"type":"number"}},"required":["hp","eta"]}"#)
            let read = try await http.get(Self.shapePath, key: TestServer.backendKey)
            #expect(read.json?["source"]?.stringValue == "app" && read.json?["revision"]?.numberValue == 2, "\(read.text)")
            #expect(read.json?["shape"]?["required"] == ["eta", "hp"])
            // What v2 needs is refused for v1's activity too: both versions run side by side.
            let old = try await http.post("/v1/activities/v1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
            #expect(old.status == 422 && old.errorField == "contentState.eta", "\(old.text)")
            // A bad shape in a registration is refused by the contract, naming it.
            var body = registrationJSON(activityID: "v3", token: String(repeating: "ef", count: 32))
            body.removeLast()
            let bad = try await http.post("/v1/activities", key: TestServer.appKey, body + #","contentStateShape":{"type":"string"}}"#)
            #expect(bad.status == 400 && bad.errorField == "contentStateShape.type", "\(bad.text)")
        }
    }
}

extension String {
    /// The string parsed as JSON (nil when it is not).
    fileprivate var json: JSONValue? { try? JSONValue.parse(self) }
}
