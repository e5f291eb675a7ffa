import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushAPIClient
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The server against the local APNs simulator: registration through the API, sends from the backend,
/// the simulated activity showing the result.
@Suite struct EndToEndTests {
    /// A priority-`priority` update of `hp`, accepted (202) or the call throws.
    private func update(_ server: TestServer, _ activityID: String, hp: Int, priority: Int = 10) async throws -> Components.Schemas.Accepted {
        try await server.client(TestServer.backendKey).updateActivity(
            path: .init(activityId: activityID),
            body: .json(.init(contentState: ["hp": .number(Double(hp))], priority: .init(value1: priority == 10 ? ._10 : ._5)))
        ).accepted.body.json
    }

    @Test(arguments: TestDatabase.available)
    func backendUpdateReachesTheSimulatedActivity(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let created = try await sim.startActivity(name: "panda")
            try await server.register(created)
            let accepted = try await update(server, created.id, hp: 42)
            #expect(accepted.pushIds.count == 1 && accepted.downgraded.isEmpty)
            #expect(try await eventually { try await sim.contentState(created.id)["hp"]?.numberValue == 42 })
            #expect(
                try await eventually {
                    try await server.store.deliveries(activityID: created.id, limit: 1).first?.outcome == .accepted
                })
            let backend = server.client(TestServer.backendKey)
            let detail = try await backend.getActivity(path: .init(activityId: created.id)).ok.body.json
            #expect(detail.deliveries.first?.apnsId != nil && detail.deliveries.first?.pushId == accepted.pushIds.first)

            let end = try await backend.endActivity(
                path: .init(activityId: created.id),
                body: .json(
                    .init(
                        contentState: .init(value1: ["hp": 0]), priority: .init(value1: ._10),
                        dismissalDate: .init(value1: .case4("+10m")))))
            _ = try end.accepted
            #expect(try await eventually { try await sim.simulator.world.activity(id: created.id).state == .ended })
            #expect(try await sim.contentState(created.id)["hp"]?.numberValue == 0)
        }
    }

    @Test(arguments: TestDatabase.available)
    func endsWithoutContentStateKeepTheLastState(database: TestStore) async throws {
        // WWDC23: the end's final content state is optional; the activity keeps showing its last one.
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let one = try await sim.startActivity(name: "owl")
            let two = try await sim.startActivity(name: "fox")
            try await server.register(one)
            try await server.register(two, groups: ["den"])
            _ = try await update(server, one.id, hp: 42)
            _ = try await update(server, two.id, hp: 17)
            #expect(try await eventually { try await sim.contentState(two.id)["hp"]?.numberValue == 17 })
            #expect(try await eventually { try await sim.contentState(one.id)["hp"]?.numberValue == 42 })

            let end = try await server.http.post("/v1/activities/\(one.id)/end", key: TestServer.backendKey, #"{"dismissalDate":"+10m"}"#)
            #expect(end.status == 202, "\(end.text)")
            let groupEnd = try await server.http.post("/v1/groups/den/end", key: TestServer.backendKey, "{}")
            #expect(groupEnd.status == 202, "\(groupEnd.text)")
            for (created, hp) in [(one, 42.0), (two, 17.0)] {
                #expect(try await eventually { try await sim.simulator.world.activity(id: created.id).state == .ended })
                #expect(try await sim.contentState(created.id)["hp"]?.numberValue == hp)
                #expect(try await server.store.activity(id: created.id)?.lastContentState?["hp"]?.numberValue == hp)
            }
            let update = try await server.http.post("/v1/activities/\(one.id)/update", key: TestServer.backendKey, "{}")
            #expect(update.status == 400 && update.errorField == "contentState" && update.errorRule == "required")
        }
    }

    @Test(arguments: TestDatabase.available)
    func rotatedTokenIsUsedAndTheOldOneNeverAgain(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let created = try await sim.startActivity(name: "tiger")
            try await server.register(created)
            let newToken = try await sim.simulator.world.rotateActivityToken(activityID: created.id)
            let rotated = try await server.http.put(
                "/v1/activities/\(created.id)/push-token", key: TestServer.appKey, #"{"pushToken":"\#(newToken)"}"#)
            #expect(rotated.status == 200)
            _ = try await update(server, created.id, hp: 7)
            #expect(try await eventually { try await sim.contentState(created.id)["hp"]?.numberValue == 7 })
            let log = await sim.simulator.world.pushes(limit: 100)
            #expect(log.count == 1)
            #expect(log.first?.token == newToken)
            #expect(try await server.store.activity(id: created.id)?.tokenState.isValid == true)
            let reuse = try await server.http.put(
                "/v1/activities/\(created.id)/push-token", key: TestServer.appKey, #"{"pushToken":"\#(created.pushToken)"}"#)
            #expect(reuse.status == 409, "a retired token is refused: \(reuse.text)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func goneTokenIsMarkedInvalid(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let created = try await sim.startActivity(name: "eagle")
            try await server.register(created)
            // The device rotates its token but the app never tells the server: the old one answers 410.
            _ = try await sim.simulator.world.rotateActivityToken(activityID: created.id)
            _ = try await update(server, created.id, hp: 9)
            #expect(
                try await eventually {
                    try await server.store.activity(id: created.id)?.tokenState.isValid == false
                })
            #expect(
                try await eventually {
                    try await server.store.deliveries(activityID: created.id, limit: 1).first != nil
                })
            let history = try await server.store.deliveries(activityID: created.id, limit: 1)
            #expect(history.first?.status == 410 && history.first?.outcome == .rejected)
            let refused = try await server.http.post(
                "/v1/activities/\(created.id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":10},"priority":10}"#)
            #expect(refused.status == 409 && refused.errorRule == "validToken")
            #expect(try await sim.contentState(created.id)["hp"]?.numberValue == 1)
        }
    }

    @Test(arguments: TestDatabase.available)
    func restartedServerDeliversTheWholeOutbox(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database) { $0.workerCount = 0 }) { sim, server in
            var activities: [SimulatedActivity] = []
            for index in 0..<5 {
                let created = try await sim.startActivity(name: "hero\(index)")
                try await server.register(created)
                activities.append(created)
            }
            for round in 1...4 {
                for created in activities {
                    _ = try await update(server, created.id, hp: round)
                }
            }
            #expect(try await server.store.outboxDepth() == 20)
            #expect(await sim.simulator.world.pushes(limit: 100).isEmpty)
            try await server.restart { configuration in
                configuration.port = 0
                configuration.workerCount = 2
                configuration.appKeys = [TestServer.appKey]
                configuration.backendKeys = [TestServer.backendKey]
                configuration.pollInterval = 0.02
                configuration.retryBaseDelay = 0.02
                configuration.retryMaximumDelay = 0.1
            }
            #expect(try await eventually { try await server.store.outboxDepth() == 0 })
            for created in activities {
                #expect(try await sim.contentState(created.id)["hp"]?.numberValue == 4)
                let history = try await server.store.deliveries(activityID: created.id, limit: 10)
                #expect(history.count == 4 && history.allSatisfy { $0.outcome == .accepted })
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func everyUpdateArrivesDespiteInjected503sAndGoAways(database: TestStore) async throws {
        var options = SimulatorOptions()
        options.faultSeed = 2026
        try await withSimulator(options) { sim in
            try sim.simulator.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 0.2))
            try sim.simulator.faults.add(FaultRule(reason: "Shutdown", share: 1, goAwayAfterStreams: 15))
            try await withServer(ServerOptions(store: database), over: sim) { server in
                var activities: [SimulatedActivity] = []
                for index in 0..<6 {
                    let created = try await sim.startActivity(name: "fault\(index)")
                    try await server.register(created, groups: ["party"])
                    activities.append(created)
                }
                for round in 1...5 {
                    for created in activities {
                        _ = try await update(server, created.id, hp: round, priority: round % 2 == 0 ? 5 : 10)
                    }
                }
                let group = try await server.http.post(
                    "/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":100},"priority":10}"#)
                #expect(group.status == 202)
                #expect(try await server.finishedGroupSend(group, timeout: .seconds(60))["state"]?.stringValue == "finished")
                #expect(try await eventually(timeout: .seconds(60)) { try await server.store.outboxDepth() == 0 })
                for created in activities {
                    #expect(try await sim.contentState(created.id)["hp"]?.numberValue == 100)
                    let history = try await server.store.deliveries(activityID: created.id, limit: 50)
                    #expect(
                        history.allSatisfy { $0.outcome == .accepted || $0.outcome == .coalesced },
                        "\(history.map { "\($0.outcome) \($0.reason ?? "")" })")
                }
                let log = await sim.simulator.world.pushes(limit: 2000)
                #expect(log.contains { $0.status == 503 }, "faults were injected")
                // A push that met a 503 was either sent again (accepted after more than one attempt) or replaced,
                // while waiting for its retry, by a newer routine update (coalesced after an attempt).
                let retried = try await activities.asyncReduce(0) { total, created in
                    try await total
                        + server.store.deliveries(activityID: created.id, limit: 50).filter {
                            ($0.outcome == .accepted && $0.attempts > 1) || ($0.outcome == .coalesced && $0.attempts > 0)
                        }.count
                }
                #expect(retried > 0, "some pushes needed more than one attempt")
            }
        }
    }
}

/// Push-to-start through the API onto a simulated device.
@Suite struct PushToStartEndToEndTests {
    @Test(arguments: TestDatabase.available)
    func backendStartsAnActivityOnEveryDeviceOfTheUser(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            var deviceIDs: [String] = []
            for name in ["phone", "ipad"] {
                let device = try await sim.simulator.world.addDevice(
                    DeviceRegistration(name: name, bundleID: sim.bundleID, environment: "sandbox"))
                deviceIDs.append(device.deviceID)
                let stored = try await server.http.put(
                    "/v1/push-to-start-tokens", key: TestServer.appKey,
                    #"""
                    {"userId":"u1","deviceId":"\#(name)","bundleId":"\#(sim.bundleID)","attributesType":"\#(sim.attributesTypes[0])","environment":"sandbox","token":"\#(device.pushToStartToken)"}
                    """#)
                #expect(stored.status == 200, "\(stored.text)")
            }
            let started = try await server.http.post(
                "/v1/users/u1/start", key: TestServer.backendKey,
                #"""
                {"attributesType":"\#(sim.attributesTypes[0])","attributes":{"hero":"Panda"},"contentState":{"hp":77},"alert":{"title":"Quest started","body":{"locKey":"QUEST_BODY","locArgs":["Panda"]}},"priority":10,"inputPushToken":true}
                """#)
            #expect(started.status == 202)
            #expect(started.json?["pushIds"]?.arrayValue?.count == 2)
            #expect(await eventually { await sim.simulator.world.pushes(limit: 10).count == 2 })
            for push in await sim.simulator.world.pushes(limit: 10) {
                #expect(push.payload["aps"]?["input-push-token"]?.numberValue == 1)
            }
            for deviceID in deviceIDs {
                #expect(
                    try await eventually {
                        try await sim.simulator.world.device(id: deviceID).activities.contains { $0.contentState["hp"]?.numberValue == 77 }
                    })
            }
        }
    }
}

extension Sequence {
    func asyncReduce<Result>(_ initial: Result, _ next: (Result, Element) async throws -> Result) async rethrows -> Result {
        var result = initial
        for element in self { result = try await next(result, element) }
        return result
    }
}
