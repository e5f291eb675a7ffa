import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// `POST /v1/starts`: one request starts an activity for many users, stored as one record, sent in pages,
/// its progress at `GET /v1/sends/{sendId}`; with `inputPushChannel` every started activity follows one
/// broadcast.
@Suite struct AudienceStartTests {
    /// Users in the audience with a simulated iPhone each: a few pages of the server's batch size in
    /// `swift test` (1,000 users: `HeavyAudienceStartTests`; 10,000 with figures: `Benchmarks/audience.sh`).
    static let userCount = 150

    /// A simulated iPhone per user, each with its push-to-start token stored for the user (app key).
    static func addUsers(_ names: [String], sim: SimulatedAPNs, server: TestServer) async throws -> [String: String] {
        var devices: [String: String] = [:]
        for name in names {
            let device = try await sim.simulator.world.addDevice(DeviceRegistration(name: name, bundleID: sim.bundleID, environment: "sandbox"))
            let stored = try await server.http.put(
                "/v1/push-to-start-tokens", key: TestServer.appKey,
                #"""
                {"userId":"\#(name)","deviceId":"\#(device.deviceID)","bundleId":"\#(sim.bundleID)","attributesType":"\#(sim.attributesTypes[0])","environment":"sandbox","token":"\#(device.pushToStartToken)"}
                """#)
            #expect(stored.status == 200, "\(stored.text)")
            devices[name] = device.deviceID
        }
        return devices
    }

    /// A start body for `audience` (the `userIds` or `everyone` member; nil: neither).
    static func body(_ audience: String?, sim: SimulatedAPNs, channel: String? = nil, extra: String = "") -> String {
        let channelField = channel.map { #","inputPushChannel":"\#($0)""# } ?? ""
        return
            #"{\#(audience.map { $0 + "," } ?? "")"attributesType":"\#(sim.attributesTypes[0])","attributes":{"hero":"Fan"},"contentState":{"hp":1},"alert":{"title":"Kick-off","body":"Follow the match"}\#(channelField)\#(extra)}"#
    }

    static func userList(_ names: [String]) -> String {
        #""userIds":[\#(names.map { "\"\($0)\"" }.joined(separator: ","))]"#
    }

    /// Every listed user's iPhone shows the activity, subscribed to the channel, and one broadcast updates
    /// them all; a listed user without a token and a device over its push-to-start budget are counted
    /// skipped (noToken, budget), not sent.
    @Test(arguments: TestDatabase.available)
    func everyUserGetsTheActivityAndOneBroadcastUpdatesThemAll(database: TestStore) async throws {
        try await withSimulator { sim in
            let options = ServerOptions(store: database, configure: { $0.pushToStartBudget = 1 })
            try await withServer(options, over: sim) { server in
                let http = server.http
                let created = try await http.post(
                    "/v1/channels", key: TestServer.backendKey, #"{"name":"match","bundleId":"\#(sim.bundleID)","storagePolicy":0}"#)
                let channel = try #require(created.json?["id"]?.stringValue, "\(created.text)")
                let fans = (0..<Self.userCount).map { String(format: "fan-%04d", $0) }
                let devices = try await Self.addUsers(fans + ["capped", "outsider"], sim: sim, server: server)
                // The capped user's one start in the window is used by a start of their own.
                let own = try await http.post("/v1/users/capped/start", key: TestServer.backendKey, Self.body(nil, sim: sim))
                #expect(own.status == 202, "\(own.text)")
                let cappedDevice = try #require(devices["capped"])
                #expect(try await eventually { try await sim.simulator.world.device(id: cappedDevice).activities.count == 1 })

                let answer = try await http.post(
                    "/v1/starts", key: TestServer.backendKey, Self.body(Self.userList(fans + ["nobody", "capped"]), sim: sim, channel: channel))
                #expect(answer.status == 202, "\(answer.text)")
                #expect(answer.json?["kind"]?.stringValue == "start" && answer.json?["state"]?.stringValue == "accepted", "\(answer.text)")
                #expect(answer.json?["audience"]?["userCount"]?.numberValue == Double(Self.userCount + 2), "\(answer.text)")
                #expect(answer.json?["audience"]?["inputPushChannel"]?.stringValue == channel, "\(answer.text)")

                let progress = try await server.finishedGroupSend(answer)
                let counts = progress["counts"]
                #expect(counts?["targeted"]?.numberValue == Double(Self.userCount + 2), "\(progress)")
                #expect(counts?["sent"]?.numberValue == Double(Self.userCount), "\(progress)")
                #expect(counts?["noToken"]?.numberValue == 1 && counts?["budget"]?.numberValue == 1, "\(progress)")
                #expect(counts?["skipped"]?.numberValue == 2 && counts?["failed"]?.numberValue == 0, "\(progress)")
                #expect(counts?["pending"]?.numberValue == 0 && progress["finishedAt"]?.stringValue != nil, "\(progress)")

                let world = sim.simulator.world
                for fan in fans {
                    let device = try #require(devices[fan])
                    #expect(try await eventually { try await world.device(id: device).activities.count == 1 }, "\(fan) got the start")
                }
                #expect(try await world.device(id: try #require(devices["outsider"])).activities.isEmpty, "a user not listed gets nothing")
                #expect(try await world.device(id: cappedDevice).activities.count == 1, "the device over its budget got no second start")

                let update = try await http.post("/v1/channels/\(channel)/update", key: TestServer.backendKey, #"{"contentState":{"hp":0.5}}"#)
                #expect(update.status == 202, "\(update.text)")
                for fan in fans {
                    let device = try #require(devices[fan])
                    #expect(
                        try await eventually { try await world.device(id: device).activities.first?.contentState["hp"]?.numberValue == 0.5 },
                        "\(fan)'s activity follows the channel")
                }
            }
        }
    }

    /// `everyone: true` reaches every user holding a valid push-to-start token for the type, and nobody
    /// else.
    @Test(arguments: TestDatabase.available)
    func everyoneMeansEveryUserWithAToken(database: TestStore) async throws {
        try await withSimulator { sim in
            try await withServer(ServerOptions(store: database), over: sim) { server in
                let nobody = try await server.http.post("/v1/starts", key: TestServer.backendKey, Self.body(#""everyone":true"#, sim: sim))
                #expect(nobody.status == 404 && nobody.errorField == "everyone", "\(nobody.text)")

                let users = ["ava", "ben", "cleo"]
                let devices = try await Self.addUsers(users, sim: sim, server: server)
                let answer = try await server.http.post("/v1/starts", key: TestServer.backendKey, Self.body(#""everyone":true"#, sim: sim))
                #expect(answer.status == 202, "\(answer.text)")
                #expect(answer.json?["audience"]?["everyone"]?.boolValue == true, "\(answer.text)")
                let progress = try await server.finishedGroupSend(answer)
                #expect(progress["counts"]?["targeted"]?.numberValue == 3 && progress["counts"]?["sent"]?.numberValue == 3, "\(progress)")
                for user in users {
                    let device = try #require(devices[user])
                    #expect(try await eventually { try await sim.simulator.world.device(id: device).activities.count == 1 }, "\(user)")
                }
            }
        }
    }

    /// A refused audience start names the field and the rule, and stores nothing; only a backend key
    /// starts for an audience or reads a send.
    @Test func refusalsNameTheFieldAndTheRule() async throws {
        try await withSimulator { sim in
            try await withServer(over: sim) { server in
                let http = server.http
                _ = try await Self.addUsers(["ava"], sim: sim, server: server)
                let tooMany = (0...10_000).map { "u\($0)" }
                let cases: [(name: String, body: String, status: Int, field: String, rule: String?)] = [
                    ("neither", Self.body(nil, sim: sim), 400, "userIds", "required"),
                    ("both", Self.body(#""userIds":["ava"],"everyone":true"#, sim: sim), 400, "everyone", "oneOf"),
                    ("empty", Self.body(#""userIds":[]"#, sim: sim), 400, "userIds", "minCount"),
                    ("too many", Self.body(Self.userList(tooMany), sim: sim), 400, "userIds", "maxCount"),
                    ("repeated", Self.body(#""userIds":["ava","ava"]"#, sim: sim), 400, "userIds[1]", "unique"),
                    ("empty id", Self.body(#""userIds":["ava",""]"#, sim: sim), 400, "userIds[1]", nil),
                    (
                        "no alert",
                        Self.body(#""userIds":["ava"]"#, sim: sim).replacingOccurrences(
                            of: #","alert":{"title":"Kick-off","body":"Follow the match"}"#, with: ""), 400, "alert", "required"
                    ),
                    (
                        "unknown channel", Self.body(#""userIds":["ava"]"#, sim: sim, channel: UUID().uuidString.lowercased()), 404,
                        "inputPushChannel", nil
                    ),
                ]
                for refusal in cases {
                    let answer = try await http.post("/v1/starts", key: TestServer.backendKey, refusal.body)
                    #expect(answer.status == refusal.status, "\(refusal.name): \(answer.text)")
                    #expect(answer.errorField == refusal.field, "\(refusal.name): \(answer.text)")
                    if let rule = refusal.rule { #expect(answer.errorRule == rule, "\(refusal.name): \(answer.text)") }
                }

                // The content-state shape gate, as for a user's start.
                let shapePath = "/v1/apps/\(sim.bundleID)/attributes-types/\(sim.attributesTypes[0])/content-state-shape"
                let shape = ContentStateShape(ContentStateSchema(fields: ["hp": FieldType(.number), "status": FieldType(.string)])).json.description
                let put = try await http.put(shapePath, key: TestServer.backendKey, shape)
                #expect(put.status == 200, "\(put.text)")
                let misfit = try await http.post("/v1/starts", key: TestServer.backendKey, Self.body(#""userIds":["ava"]"#, sim: sim))
                #expect(misfit.status == 422 && misfit.errorField == "contentState.status", "\(misfit.text)")

                // Only a backend key: not the app's key, not a user's token.
                let fits = Self.body(#""userIds":["ava"]"#, sim: sim).replacingOccurrences(of: #"{"hp":1}"#, with: #"{"hp":1,"status":"ok"}"#)
                #expect(try await http.post("/v1/starts", key: TestServer.appKey, fits).status == 403)
                #expect(try await http.post("/v1/starts", key: try await server.userToken(for: "ava"), fits).status == 403)
                let accepted = try await http.post("/v1/starts", key: TestServer.backendKey, fits)
                #expect(accepted.status == 202, "\(accepted.text)")
                let sendID = try #require(accepted.json?["sendId"]?.stringValue)
                #expect(try await http.get("/v1/sends/\(sendID)", key: TestServer.appKey).status == 403)
                #expect(try await http.get("/v1/sends/\(sendID)", key: TestServer.backendKey).status == 200)
            }
        }
    }
}
