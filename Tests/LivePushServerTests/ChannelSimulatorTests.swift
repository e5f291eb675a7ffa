import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// The server's channels against the simulator over real sockets: a channel created through the API is
/// APNs' channel, a broadcast through the outbox reaches every subscribed activity, deleting it stops
/// the next one.
@Suite struct ChannelSimulatorTests {
    @Test(arguments: TestDatabase.available)
    func aBroadcastThroughTheServerUpdatesEverySubscriber(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, harness in
            let created = try await harness.http.post(
                "/v1/channels", key: TestServer.backendKey,
                #"{"name":"final","bundleId":"\#(sim.bundleID)","storagePolicy":1}"#)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.json?["id"]?.stringValue)
            let apnsID = try #require(created.json?["apnsChannelId"]?.stringValue)

            var subscribers: [String] = []
            for index in 0..<3 { subscribers.append(try await sim.startChannelActivity(name: "fan-\(index)", channel: apnsID)) }
            let update = try await harness.http.post("/v1/channels/\(id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":0.25}}"#)
            #expect(update.status == 202, "\(update.text)")
            for activity in subscribers {
                #expect(await eventually { (try? await sim.contentState(activity))?["hp"]?.numberValue == 0.25 }, "\(activity) got the broadcast")
            }
            // A channel that stores its most recent message gives it to a later subscriber.
            let late = try await sim.startChannelActivity(name: "late", channel: apnsID)
            #expect(await eventually { (try? await sim.contentState(late))?["hp"]?.numberValue == 0.25 })

            let deleted = try await harness.http.request("DELETE", "/v1/channels/\(id)", key: TestServer.backendKey)
            #expect(deleted.status == 200, "\(deleted.text)")
            let refused = try await harness.http.post("/v1/channels/\(id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":0.5}}"#)
            #expect(refused.status == 409)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aPushToStartSubscribesTheNewActivityToTheChannel(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, harness in
            let http = harness.http
            let created = try await http.post(
                "/v1/channels", key: TestServer.backendKey,
                #"{"name":"match","bundleId":"\#(sim.bundleID)","storagePolicy":0}"#)
            let id = try #require(created.json?["id"]?.stringValue, "\(created.text)")
            let device = try await sim.simulator.world.addDevice(
                DeviceRegistration(name: "phone", bundleID: sim.bundleID, environment: "sandbox"))
            #expect(
                try await http.put(
                    "/v1/push-to-start-tokens", key: TestServer.appKey,
                    #"""
                    {"userId":"fan","deviceId":"phone","bundleId":"\#(sim.bundleID)","attributesType":"\#(sim.attributesTypes[0])","environment":"sandbox","token":"\#(device.pushToStartToken)"}
                    """#
                ).status == 200)
            let start =
                #"{"attributesType":"\#(sim.attributesTypes[0])","attributes":{"hero":"Fan"},"contentState":{"hp":1},"alert":{"title":"Kick-off","body":"Follow the match"},"inputPushChannel":"\#(id)"}"#
            let started = try await http.post("/v1/users/fan/start", key: TestServer.backendKey, start)
            #expect(started.status == 202, "\(started.text)")
            #expect(try await eventually { try await !sim.simulator.world.device(id: device.deviceID).activities.isEmpty })

            #expect(try await http.post("/v1/channels/\(id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":0.5}}"#).status == 202)
            #expect(
                try await eventually {
                    try await sim.simulator.world.device(id: device.deviceID).activities.first?.contentState["hp"]?.numberValue == 0.5
                }, "the activity push-to-start began follows the channel")

            let unknown = try await http.post(
                "/v1/users/fan/start", key: TestServer.backendKey,
                start.replacingOccurrences(of: id, with: UUID().uuidString.lowercased()))
            #expect(unknown.status == 404 && unknown.errorField == "inputPushChannel", "\(unknown.text)")
        }
    }
}
