import APNsAuth
import APNsCore
import Crypto
import Foundation
import LiveActivity
import Logging
@testable import APNsSimulator

/// A whole simulator (APNs endpoint + control port with the dashboard) on ephemeral loopback ports, a
/// trusted provider key, and an HTTP/2 connection that sends pushes as a provider does.
struct DashboardScene {
    static let bundleID = "com.example.emojirangers"
    static let topic = "com.example.emojirangers.push-type.liveactivity"
    static let teamID = "TEAM000042"
    static let keyID = "KEY0000042"

    let simulator: Simulator
    let client: RawHTTP2Client
    let jwt: String
    let directory: URL

    var world: DeviceWorld { simulator.world }
    var dashboardURL: String { "http://127.0.0.1:\(simulator.controlPort ?? 0)/dashboard" }

    static func start() async throws -> DashboardScene {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepush-dashboard-\(UUID().uuidString)")
        var configuration = SimulatorConfiguration()
        configuration.endpoint.host = "127.0.0.1"
        configuration.endpoint.port = 0
        configuration.controlHost = "127.0.0.1"
        configuration.controlPort = 0
        configuration.dataDirectory = directory.path
        configuration.shutdownGracePeriod = 1
        var logger = Logger(label: "test.dashboard")
        logger.logLevel = .critical
        let simulator = try Simulator(configuration: configuration, logger: logger)
        let signingKey = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
        simulator.keys.register(keyID: keyID, teamID: teamID, publicKey: signingKey.privateKey.publicKey)
        try await simulator.start()
        let client = try await RawHTTP2Client.connect(
            port: simulator.apnsPort ?? 0, caPEM: simulator.certificates.caCertificatePEM)
        let jwt = ProviderToken.sign(key: signingKey, keyID: keyID, teamID: teamID, issuedAt: Date()).jwt
        return DashboardScene(simulator: simulator, client: client, jwt: jwt, directory: directory)
    }

    /// Sends a Live Activity push over HTTP/2 to the simulator's APNs endpoint.
    @discardableResult
    func push(to token: String, priority: Int, aps: JSONValue) async throws -> RawResponse {
        let headers: [(String, String)] = [
            (":method", "POST"), (":scheme", "https"), (":path", "/3/device/\(token)"), (":authority", "localhost"),
            ("authorization", "bearer \(jwt)"), ("apns-push-type", "liveactivity"), ("apns-topic", Self.topic),
            ("apns-priority", String(priority)),
        ]
        return try await client.send(headers, body: Array(JSONValue.object(["aps": aps]).serialized()))
    }

    /// Waits until the push log holds `count` entries (the endpoint records each exchange after answering).
    func waitForLog(count: Int) async throws -> [PushLogEntry] {
        var log: [PushLogEntry] = []
        for _ in 0..<600 {
            log = await world.pushes()
            if log.count >= count { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return log
    }

    func stop() async {
        await client.close()
        await simulator.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}
