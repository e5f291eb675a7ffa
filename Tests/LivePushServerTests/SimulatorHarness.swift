import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import Logging

/// The local APNs simulator on 127.0.0.1 (ephemeral ports) with a trusted provider key, and an
/// `APNsClient` that talks to it.
final class SimulatorHarness: Sendable {
    static let bundleId = "com.example.rangers"
    static let attributesType = "AdventureAttributes"

    let simulator: Simulator
    let client: APNsClient
    let directory: URL

    init(faultSeed: UInt64 = 7) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepush-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        var configuration = SimulatorConfiguration()
        configuration.endpoint.host = "127.0.0.1"
        configuration.endpoint.port = 0
        configuration.controlHost = "127.0.0.1"
        configuration.controlPort = 0
        configuration.dataDirectory = directory.path
        configuration.faultSeed = faultSeed
        configuration.shutdownGracePeriod = 1
        var logger = Logger(label: "livepush.simulator.test")
        logger.logLevel = .critical
        let simulator = try Simulator(configuration: configuration, logger: logger)
        try await simulator.start()
        self.simulator = simulator
        let key = APNsSigningKey.generate()
        simulator.keys.register(keyID: "KEYID12345", teamID: "TEAMID1234", publicKey: key.publicKey)
        _ = try await simulator.world.registerApp(AppRegistration(
            bundleId: Self.bundleId, environment: "sandbox", attributesTypes: DeclaredAttributesTypes(names: [Self.attributesType])
        ))
        let port = try require(simulator.apnsPort)
        var clientLogger = Logger(label: "livepush.client.test")
        clientLogger.logLevel = .critical
        client = try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: APNsEndpoint(host: "127.0.0.1", port: port, environment: .sandbox),
                channelManagementEndpoint: APNsEndpoint(host: "127.0.0.1", port: try require(simulator.managePort)),
                additionalTrustRootFile: simulator.caCertificatePath, trustOnlyAdditionalRoots: true,
                maximumConnections: 2, connectTimeout: .seconds(30), requestTimeout: .seconds(10),
                retry: ServerConfiguration().apnsRetry // the server's client: the outbox backs off
            ),
            tokens: try ProviderTokenSource(key: key, keyID: "KEYID12345", teamID: "TEAMID1234"),
            logger: clientLogger
        )
    }

    /// A simulated device with one running activity: its simulator id and update token.
    func startActivity(name: String, hp: Double = 1) async throws -> ActivityCreated {
        let device = try await simulator.world.addDevice(DeviceRegistration(name: name, bundleId: Self.bundleId, environment: "sandbox"))
        return try await simulator.world.startActivity(deviceID: device.deviceId, ActivityRequest(
            attributesType: Self.attributesType, attributes: .object(["hero": .string(name)]),
            contentState: .object(["hp": .number(hp)])
        ))
    }

    /// A simulated device with one activity subscribed to a broadcast channel (APNs' channel id).
    func startChannelActivity(name: String, channel: String) async throws -> String {
        let device = try await simulator.world.addDevice(DeviceRegistration(name: name, bundleId: Self.bundleId, environment: "sandbox"))
        return try await simulator.world.startChannelActivity(deviceID: device.deviceId, ActivityRequest(
            attributesType: Self.attributesType, attributes: .object(["hero": .string(name)]),
            contentState: .object(["hp": .number(1)]), channelId: channel
        )).activityId
    }

    /// The content-state the simulated activity shows.
    func contentState(_ activityId: String) async throws -> JSONValue {
        try await simulator.world.activity(id: activityId).contentState
    }

    func stop() async {
        await client.shutdown()
        await simulator.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

private struct MissingValue: Error {}

private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingValue() }
    return value
}
