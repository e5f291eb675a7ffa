import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// A start carries the wall clock's second, however many starts the device's token got just before: each
/// start makes a new activity, and a timestamp ahead of the clock would make it drop, as older, the updates
/// and broadcasts sent in its first seconds.
@Suite struct StartTimestampTests {
    @Test func startsInQuickSuccessionTakeTheBroadcastThatFollows() async throws {
        try await withSimulatedServer(ServerOptions(store: .sqlite)) { sim, server in
            let http = server.http
            let created = try await http.post(
                "/v1/channels", key: TestServer.backendKey, #"{"name":"match","bundleId":"\#(sim.bundleID)","storagePolicy":0}"#)
            let channel = try #require(created.json?["id"]?.stringValue, "\(created.text)")
            let device = try #require(try await AudienceStartTests.addUsers(["ava"], sim: sim, server: server)["ava"])
            let starts = 6
            for _ in 0..<starts {
                let start = try await http.post(
                    "/v1/users/ava/start", key: TestServer.backendKey, AudienceStartTests.body(nil, sim: sim, channel: channel))
                #expect(start.status == 202, "\(start.text)")
            }
            let world = sim.simulator.world
            #expect(try await eventually { try await world.device(id: device).activities.count == starts }, "every start arrived")

            let update = try await http.post("/v1/channels/\(channel)/update", key: TestServer.backendKey, #"{"contentState":{"hp":0.5}}"#)
            #expect(update.status == 202, "\(update.text)")
            let applied = try await eventually {
                try await world.device(id: device).activities.allSatisfy { $0.contentState["hp"]?.numberValue == 0.5 }
            }
            let shown = try await world.device(id: device).activities.map { $0.contentState["hp"]?.numberValue ?? -1 }
            #expect(applied, "every started activity applied the broadcast: \(shown)")
        }
    }
}
