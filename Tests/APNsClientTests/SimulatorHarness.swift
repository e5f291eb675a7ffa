import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import NIOCore
import NIOPosix

/// A running local simulator (ephemeral ports, temporary data dir) with one trusted key, plus helpers to
/// make clients and simulated activities.
struct SimulatorHarness {
    static let bundleID = "com.example.apple-samplecode.Emoji-Rangers"
    let simulator: Simulator
    let key: APNsSigningKey
    let keyID = "SIMKEY0001"
    let teamID = "TEAM000001"
    let directory: URL

    static func start(acceptUnknownTokens: Bool = false, configure: (inout SimulatorConfiguration) -> Void = { _ in }) async throws -> SimulatorHarness {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepush-client-\(UUID().uuidString)")
        var configuration = SimulatorConfiguration()
        configuration.dataDirectory = directory.path
        configuration.endpoint.port = 0
        configuration.controlPort = 0
        configuration.deviceRules.acceptUnknownTokens = acceptUnknownTokens
        configuration.deviceRules.tooManyRequests = nil
        configuration.shutdownGracePeriod = 0.2
        configure(&configuration)
        let key = APNsSigningKey.generate()
        let keys = TrustedKeys()
        keys.register(keyID: "SIMKEY0001", teamID: "TEAM000001", publicKey: key.publicKey)
        let simulator = try Simulator(configuration: configuration, keys: keys)
        try await simulator.start()
        return SimulatorHarness(simulator: simulator, key: key, directory: directory)
    }

    var endpoint: APNsEndpoint { APNsEndpoint(host: "127.0.0.1", port: simulator.apnsPort!) }
    var managementEndpoint: APNsEndpoint { APNsEndpoint(host: "127.0.0.1", port: simulator.managePort!) }

    func tokens() throws -> ProviderTokenSource {
        try ProviderTokenSource(key: key, keyID: keyID, teamID: teamID)
    }

    func client(
        tokens: (any ProviderTokenProviding)? = nil,
        trustCA: Bool = true,
        maximumConnections: Int = 1,
        connectTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(10),
        retry: APNsRetryPolicy = APNsRetryPolicy(maximumAttempts: 5, baseDelay: 0.01, maximumDelay: 0.05),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws -> APNsClient {
        try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: endpoint,
                channelManagementEndpoint: managementEndpoint,
                additionalTrustRootFile: trustCA ? simulator.caCertificatePath : nil,
                maximumConnections: maximumConnections,
                connectTimeout: connectTimeout,
                requestTimeout: requestTimeout,
                retry: retry
            ),
            tokens: try tokens ?? self.tokens(),
            group: group
        )
    }

    /// A simulated iPhone running an Emoji Rangers activity; returns (activityId, pushToken).
    func startActivity(health: Double = 1.0) async throws -> (activityID: String, token: String) {
        let device = try await simulator.world.addDevice(
            DeviceRegistration(name: "iPhone \(UUID().uuidString.prefix(4))", bundleId: Self.bundleID, environment: "sandbox")
        )
        let created = try await simulator.world.startActivity(
            deviceID: device.deviceId,
            ActivityRequest(
                attributesType: "AdventureAttributes", attributes: ["hero": "Power Panda"],
                contentState: ["currentHealthLevel": .number(health), "eventDescription": "Adventure has begun!"]
            )
        )
        return (created.activityId, created.pushToken)
    }

    static func update(token: String, health: Double, text: String, at timestamp: Date = Date()) throws -> APNsRequest {
        let payload = LiveActivityPayload.update(
            contentState: ["currentHealthLevel": .number(health), "eventDescription": .string(text)] as JSONValue,
            timestamp: timestamp
        )
        return try LiveActivityPush(token: token, bundleID: bundleID, payload: payload, priority: .conservesPower).makeRequest()
    }

    func stop() async {
        await simulator.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A token source that hands out a stale token first, to exercise ExpiredProviderToken.
final class StaleFirstTokens: ProviderTokenProviding, @unchecked Sendable {
    private let lock = NSLock()
    private var jwt: String
    private let fresh: String
    private(set) var renewals = 0

    init(key: APNsSigningKey, keyID: String, teamID: String) {
        jwt = ProviderToken.sign(key: key, keyID: keyID, teamID: teamID, issuedAt: Date().addingTimeInterval(-2 * 3600)).jwt
        fresh = ProviderToken.sign(key: key, keyID: keyID, teamID: teamID, issuedAt: Date()).jwt
    }

    func currentJWT() -> String { lock.withLock { jwt } }

    func renewJWT(rejected: String) -> String {
        lock.withLock {
            if rejected == jwt, jwt != fresh {
                renewals += 1
                jwt = fresh
            }
            return jwt
        }
    }
}
