import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import Testing

/// The server's channels against the simulator over real sockets: a channel created through the API is
/// APNs' channel, a broadcast through the outbox reaches every subscribed activity, deleting it stops
/// the next one.
@Suite struct ChannelSimulatorTests {
    @Test(arguments: TestDatabase.available)
    func aBroadcastThroughTheServerUpdatesEverySubscriber(database: TestDatabase) async throws {
        let sim = try await SimulatorHarness()
        let harness = try await ServerHarness(sender: sim.client, database: database)
        let created = try await harness.http.post("/v1/channels", key: ServerHarness.backendKey,
                                                  #"{"name":"final","bundleId":"\#(SimulatorHarness.bundleId)","storagePolicy":1}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json?["id"]?.stringValue)
        let apnsId = try #require(created.json?["apnsChannelId"]?.stringValue)

        var subscribers: [String] = []
        for index in 0..<3 { subscribers.append(try await sim.startChannelActivity(name: "fan-\(index)", channel: apnsId)) }
        let update = try await harness.http.post("/v1/channels/\(id)/update", key: ServerHarness.backendKey, #"{"contentState":{"hp":0.25}}"#)
        #expect(update.status == 202, "\(update.text)")
        for activity in subscribers {
            #expect(await ServerHarness.eventually { (try? await sim.contentState(activity))?["hp"]?.numberValue == 0.25 }, "\(activity) got the broadcast")
        }
        // A channel that stores its most recent message gives it to a later subscriber.
        let late = try await sim.startChannelActivity(name: "late", channel: apnsId)
        #expect(await ServerHarness.eventually { (try? await sim.contentState(late))?["hp"]?.numberValue == 0.25 })

        let deleted = try await harness.http.request("DELETE", "/v1/channels/\(id)", key: ServerHarness.backendKey)
        #expect(deleted.status == 200, "\(deleted.text)")
        let refused = try await harness.http.post("/v1/channels/\(id)/update", key: ServerHarness.backendKey, #"{"contentState":{"hp":0.5}}"#)
        #expect(refused.status == 409)
        await harness.stop()
        await sim.stop()
    }

    @Test(arguments: TestDatabase.available)
    func aPushToStartSubscribesTheNewActivityToTheChannel(database: TestDatabase) async throws {
        let sim = try await SimulatorHarness()
        let harness = try await ServerHarness(sender: sim.client, database: database)
        let http = harness.http
        let created = try await http.post("/v1/channels", key: ServerHarness.backendKey,
                                          #"{"name":"match","bundleId":"\#(SimulatorHarness.bundleId)","storagePolicy":0}"#)
        let id = try #require(created.json?["id"]?.stringValue, "\(created.text)")
        let device = try await sim.simulator.world.addDevice(DeviceRegistration(name: "phone", bundleId: SimulatorHarness.bundleId, environment: "sandbox"))
        #expect(try await http.put("/v1/push-to-start-tokens", key: ServerHarness.appKey, #"""
            {"userId":"fan","deviceId":"phone","bundleId":"\#(SimulatorHarness.bundleId)","attributesType":"\#(SimulatorHarness.attributesType)","environment":"sandbox","token":"\#(device.pushToStartToken)"}
            """#).status == 200)
        let start = #"{"attributesType":"\#(SimulatorHarness.attributesType)","attributes":{"hero":"Fan"},"contentState":{"hp":1},"alert":{"title":"Kick-off","body":"Follow the match"},"inputPushChannel":"\#(id)"}"#
        let started = try await http.post("/v1/users/fan/start", key: ServerHarness.backendKey, start)
        #expect(started.status == 202, "\(started.text)")
        #expect(try await ServerHarness.eventually { try await !sim.simulator.world.device(id: device.deviceId).activities.isEmpty })

        #expect(try await http.post("/v1/channels/\(id)/update", key: ServerHarness.backendKey, #"{"contentState":{"hp":0.5}}"#).status == 202)
        #expect(try await ServerHarness.eventually {
            try await sim.simulator.world.device(id: device.deviceId).activities.first?.contentState["hp"]?.numberValue == 0.5
        }, "the activity push-to-start began follows the channel")

        let unknown = try await http.post("/v1/users/fan/start", key: ServerHarness.backendKey,
                                          start.replacingOccurrences(of: id, with: UUID().uuidString.lowercased()))
        #expect(unknown.status == 404 && unknown.errorField == "inputPushChannel", "\(unknown.text)")
        await harness.stop()
        await sim.stop()
    }
}
