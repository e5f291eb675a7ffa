import APNsClient
import APNsSimulator
import LiveActivity
import LivePushServer
import LivePushTesting

extension SimulatedAPNs {
    /// A client configuration for this simulator with the server's retry policy (the outbox backs off),
    /// for a test that wraps the server's client in a sender of its own.
    var serverClientConfiguration: APNsClientConfiguration {
        clientConfiguration(maximumConnections: 2, retry: ServerConfiguration().apnsRetry)
    }

    /// A simulated iPhone with one running activity of a hero named `name`.
    func startActivity(name: String, hp: Double = 1) async throws -> SimulatedActivity {
        try await startActivity(on: addIPhone(name: name), attributes: ["hero": .string(name)], contentState: ["hp": .number(hp)])
    }

    /// A simulated iPhone with one activity subscribed to a broadcast channel (APNs' channel id); the
    /// activity's id.
    func startChannelActivity(name: String, channel: String) async throws -> String {
        let iPhone = try await addIPhone(name: name)
        return try await simulator.world.startChannelActivity(
            deviceID: iPhone.id,
            ActivityRequest(
                attributesType: attributesTypes[0], attributes: ["hero": .string(name)], contentState: ["hp": .number(1)], channelID: channel
            )
        ).activityID
    }

    /// The content-state the simulated activity shows.
    func contentState(_ activityID: String) async throws -> JSONValue {
        try await simulator.world.activity(id: activityID).contentState
    }
}
