import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import APNsSimulator

@Suite struct ControlActivityHistoryTests {
    @Test func activityShowsPushHistoryAlertsAndOutcomes() async throws {
        try await withControl { harness in
            _ = try await harness.post(
                "/v1/apps",
                [
                    "bundleId": "com.example.rangers", "environment": "sandbox", "localizations": ["HIT": "%@ was hit"],
                ])
            let device = try await harness.post("/v1/devices", ["name": "P", "bundleId": "com.example.rangers", "environment": "sandbox"])
            let deviceID = try #require(device.json?["deviceId"]?.stringValue)
            let started = try await harness.post(
                "/v1/devices/\(deviceID)/activities",
                [
                    "attributesType": "AdventureAttributes", "attributes": [:], "contentState": ["health": 1.0],
                    "contentStateSchema": ["health": "number", "note": "string?"],
                ])
            let activityID = try #require(started.json?["activityId"]?.stringValue)
            let token = try #require(started.json?["pushToken"]?.stringValue)
            let now = Int(Date().timeIntervalSince1970)
            for (index, health) in [JSONValue.number(0.5), .string("bad")].enumerated() {
                let aps: JSONValue = [
                    "event": "update", "timestamp": .number(Double(now + index)), "content-state": ["health": health],
                    "alert": ["title": ["loc-key": "HIT", "loc-args": ["Panda"]]],
                ]
                let verdict = await harness.world.deliver(
                    ReceivedPush(
                        token: token, environment: .sandbox, topic: "com.example.rangers.push-type.liveactivity",
                        pushType: .liveactivity, priority: .conservesPower, expiration: nil, collapseID: nil,
                        apnsID: APNsID.generate(), headers: [], payload: JSONValue.object(["aps": aps]).serialized(),
                        receivedAt: Date(), teamID: "TEAM123456", keyID: "KEY1234567"))
                #expect(verdict == .accepted)
            }
            let activity = try await harness.request("GET", "/v1/activities/\(activityID)")
            let history = try #require(activity.json?["history"]?.arrayValue)
            #expect(history.map { $0["outcome"]?["kind"] } == ["applied", "decodeFailure"])
            #expect(history.last?["outcome"]?["detail"]?.stringValue?.contains("health: expected number, got string") == true)
            #expect(history.first?["status"] == 200)
            #expect(history.first?["payload"]?["aps"]?["event"] == "update")
            #expect(activity.json?["alerts"]?.arrayValue?.map { $0["title"] } == ["Panda was hit"])
            #expect(activity.json?["contentStateSchema"] == ["health": "number", "note": "string?"])
        }
    }

    @Test func eventStreamSendsHeartbeatComments() async throws {
        try await withControl(heartbeat: .milliseconds(50)) { harness in
            try await withStreamingReader(URL(string: "http://127.0.0.1:\(harness.port)/v1/events")!) { reader in
                var iterator = reader.chunks.makeAsyncIterator()
                var buffer = ""
                #expect(await readUntil(": heartbeat\n\n", in: &iterator, buffer: &buffer))
            }
        }
    }
}
