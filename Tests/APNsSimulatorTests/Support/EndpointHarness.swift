import APNsAuth
import APNsCore
import Crypto
import Foundation
import LivePushTesting
import Logging
import Metrics

@testable import APNsSimulator

/// Runs `body` with an APNs endpoint on 127.0.0.1 (an ephemeral port unless `configure` sets one; its
/// channel management endpoint always on a free port), and stops both afterwards, whatever `body` does.
@discardableResult
func withEndpoint<Result>(
    acceptUnknownTokens: Bool = true,
    keyEnvironment: APNsEnvironment? = nil,
    keyTopics: Set<String>? = nil,
    faultSeed: UInt64 = 1,
    metricsFactory: (any MetricsFactory)? = nil,
    configure: (inout EndpointConfiguration) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    _ body: (EndpointHarness) async throws -> Result
) async throws -> Result {
    try await withScopePlace {
        try await withScopedResource {
            try await EndpointHarness.start(
                acceptUnknownTokens: acceptUnknownTokens, keyEnvironment: keyEnvironment, keyTopics: keyTopics, faultSeed: faultSeed,
                metricsFactory: metricsFactory, configure: configure)
        } stop: { harness in
            await harness.stop()
        } _: { harness in
            try await body(harness)
        }
    }
}

/// ``withEndpoint(acceptUnknownTokens:keyEnvironment:keyTopics:faultSeed:metricsFactory:configure:isolation:_:)``
/// on the first port of `candidates` that is free (for a test about a fixed port).
@discardableResult
func withEndpoint<Result>(
    onOneOf candidates: [Int],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (EndpointHarness) async throws -> Result
) async throws -> Result {
    try await withScopePlace {
        try await withScopedResource {
            for candidate in candidates {
                if let harness = try? await EndpointHarness.start(configure: { $0.port = candidate }) { return harness }
            }
            throw EndpointHarness.HarnessError.noFreePort(candidates)
        } stop: { harness in
            await harness.stop()
        } _: { harness in
            try await body(harness)
        }
    }
}

/// A running APNs endpoint on 127.0.0.1 with an ephemeral port, a trusted key, and helpers to build
/// valid requests (``withEndpoint(acceptUnknownTokens:keyEnvironment:keyTopics:faultSeed:metricsFactory:configure:isolation:_:)``).
final class EndpointHarness: Sendable {
    enum HarnessError: Error { case noFreePort([Int]) }

    static let teamID = "TEAM000001"
    static let keyID = "KEY0000001"
    static let bundleID = "com.example.scores"
    static let topic = "com.example.scores.push-type.liveactivity"
    static let token = String(repeating: "ab", count: 32)
    static let payload = Array(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":1}}}"#.utf8)

    let endpoint: APNsEndpointServer
    /// The channel management API on its own port, sharing keys, faults and devices.
    let management: APNsEndpointServer
    let managementPort: Int
    let keys: TrustedKeys
    let faults: FaultInjector
    let world: DeviceWorld
    let signingKey: APNsSigningKey
    let caPEM: String
    let port: Int
    let directory: String
    let clock: ManualWallClock
    /// One provider token for the harness's requests (signatures are randomized, so signing per
    /// request would count as a token change on the connection).
    let defaultJWT: String

    /// Shared certificates for the whole test run (issuing is cheap, but one CA keeps things simple).
    static let certificates: (SimulatorCertificates, String) = {
        let directory = NSTemporaryDirectory() + "livepush-endpoint-tests-\(UUID().uuidString)"
        let certificates = try! SimulatorCertificates.loadOrCreate(directory: directory)
        return (certificates, directory)
    }()

    private init(
        endpoint: APNsEndpointServer, management: APNsEndpointServer, managementPort: Int, keys: TrustedKeys, faults: FaultInjector,
        world: DeviceWorld,
        signingKey: APNsSigningKey, caPEM: String, port: Int, directory: String, clock: ManualWallClock
    ) {
        self.endpoint = endpoint
        self.management = management
        self.managementPort = managementPort
        self.keys = keys
        self.faults = faults
        self.world = world
        self.signingKey = signingKey
        self.caPEM = caPEM
        self.port = port
        self.directory = directory
        self.clock = clock
        self.defaultJWT = ProviderToken.sign(key: signingKey, keyID: Self.keyID, teamID: Self.teamID, issuedAt: clock.now()).jwt
    }

    fileprivate static func start(
        acceptUnknownTokens: Bool = true,
        keyEnvironment: APNsEnvironment? = nil,
        keyTopics: Set<String>? = nil,
        faultSeed: UInt64 = 1,
        metricsFactory: (any MetricsFactory)? = nil,
        configure: (inout EndpointConfiguration) -> Void = { _ in }
    ) async throws -> EndpointHarness {
        let clock = ManualWallClock(Date())
        var configuration = EndpointConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.clock = clock
        // Never Apple's 2195, which a running `livepush simulator` holds, even when `configure` sets a port.
        configuration.managePort = 0
        configure(&configuration)
        let keys = TrustedKeys()
        let signingKey = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
        keys.register(
            keyID: keyID, teamID: teamID, publicKey: signingKey.privateKey.publicKey,
            environment: keyEnvironment, topics: keyTopics)
        let faults = FaultInjector(seed: faultSeed)
        var rules = DeviceRules()
        rules.acceptUnknownTokens = acceptUnknownTokens
        rules.tooManyRequests = nil
        let world = DeviceWorld(clock: clock, rules: rules)
        var logger = Logger(label: "test.endpoint")
        logger.logLevel = .critical
        let (certificates, directory) = Self.certificates
        let endpoint = APNsEndpointServer(
            configuration: configuration, certificateChainPEM: certificates.serverCertificatePEM,
            privateKeyPEM: certificates.serverPrivateKeyPEM, clientCertificateAuthorityPEM: certificates.caCertificatePEM,
            keys: keys, faults: faults, world: world,
            metricsFactory: metricsFactory ?? MetricsSystem.factory, logger: logger
        )
        let port = try await endpoint.start()
        let management = APNsEndpointServer(
            configuration: configuration, certificateChainPEM: certificates.serverCertificatePEM,
            privateKeyPEM: certificates.serverPrivateKeyPEM, clientCertificateAuthorityPEM: certificates.caCertificatePEM,
            keys: keys, faults: faults, world: world, role: .channelManagement,
            metricsFactory: metricsFactory ?? MetricsSystem.factory, logger: logger
        )
        let managementPort = try await management.start()
        return EndpointHarness(
            endpoint: endpoint, management: management, managementPort: managementPort, keys: keys, faults: faults, world: world,
            signingKey: signingKey,
            caPEM: certificates.caCertificatePEM, port: port, directory: directory, clock: clock)
    }

    /// Runs `body` with a raw HTTP/2 connection to the endpoint, and closes it afterwards.
    @discardableResult
    func withConnection<Result>(
        alpn: [String] = ["h2"], isolation: isolated (any Actor)? = #isolation, _ body: (RawHTTP2Client) async throws -> Result
    ) async throws -> Result {
        try await withRawHTTP2Client({ try await RawHTTP2Client.connect(port: port, caPEM: caPEM, alpn: alpn) }, body)
    }

    /// Runs `body` with a connection presenting `certificate` as the TLS client certificate, and closes it
    /// afterwards.
    @discardableResult
    func withConnection<Result>(
        certificate: ProviderCertificate, isolation: isolated (any Actor)? = #isolation, _ body: (RawHTTP2Client) async throws -> Result
    ) async throws -> Result {
        try await withRawHTTP2Client(
            {
                try await RawHTTP2Client.connect(
                    port: port, caPEM: caPEM, clientCertificate: (certificate.certificatePEM, certificate.privateKeyPEM))
            }, body)
    }

    /// A provider certificate signed by the endpoint's CA.
    func certificate(bundleID: String = EndpointHarness.bundleID, environment: APNsEnvironment = .sandbox) throws -> ProviderCertificate {
        try ProviderCertificate.issue(bundleID: bundleID, environment: environment, directory: directory)
    }

    /// Stops both endpoints (a second call does nothing). The scope of `withEndpoint` does it; a test
    /// calls it only when an endpoint going away is what it tests.
    func stop() async {
        await endpoint.shutdown(gracePeriod: .seconds(1))
        await management.shutdown(gracePeriod: .seconds(1))
    }

    /// Runs `body` with a raw HTTP/2 connection to the channel management port, and closes it afterwards.
    @discardableResult
    func withManagementConnection<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (RawHTTP2Client) async throws -> Result
    ) async throws -> Result {
        try await withRawHTTP2Client({ try await RawHTTP2Client.connect(port: managementPort, caPEM: caPEM, alpn: ["h2"]) }, body)
    }

    /// Headers of a channel management request (`replacing` sets or removes one, as in `request`).
    func management(
        method: String, path: String = "/1/apps/\(EndpointHarness.bundleID)/channels", jwt: String? = nil,
        replacing overrides: [String: String?] = [:]
    ) -> [(String, String)] {
        var headers: [(String, String)] = [(":method", method), (":scheme", "https"), (":path", path), (":authority", "localhost")]
        var fields: [(String, String?)] = [("authorization", "bearer " + (jwt ?? defaultJWT))]
        for (name, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == name }) { fields[index].1 = value } else { fields.append((name, value)) }
        }
        for (name, value) in fields { if let value { headers.append((name, value)) } }
        return headers
    }

    /// Headers of a broadcast to `channel` (`replacing` sets or removes one).
    func broadcast(
        channel: String, path: String = "/4/broadcasts/apps/\(EndpointHarness.bundleID)", jwt: String? = nil,
        replacing overrides: [String: String?] = [:]
    ) -> [(String, String)] {
        var headers: [(String, String)] = [(":method", "POST"), (":scheme", "https"), (":path", path), (":authority", "localhost")]
        var fields: [(String, String?)] = [
            ("authorization", "bearer " + (jwt ?? defaultJWT)), ("apns-channel-id", channel),
            ("apns-push-type", "liveactivity"), ("apns-expiration", "0"), ("apns-priority", "10"),
        ]
        for (name, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == name }) { fields[index].1 = value } else { fields.append((name, value)) }
        }
        for (name, value) in fields { if let value { headers.append((name, value)) } }
        return headers
    }

    /// A provider token signed now (by the harness clock) unless told otherwise.
    func jwt(
        keyID: String = EndpointHarness.keyID, teamID: String = EndpointHarness.teamID,
        issuedAt: Date? = nil, key: APNsSigningKey? = nil
    ) -> String {
        ProviderToken.sign(key: key ?? signingKey, keyID: keyID, teamID: teamID, issuedAt: issuedAt ?? clock.now()).jwt
    }

    /// A valid Live Activity push request, with overrides: a nil value removes a header.
    func request(
        token: String = EndpointHarness.token, jwt: String? = nil, method: String = "POST", path: String? = nil,
        authority: String = "localhost", replacing overrides: [String: String?] = [:], extra: [(String, String)] = []
    ) -> [(String, String)] {
        var headers: [(String, String)] = [
            (":method", method), (":scheme", "https"), (":path", path ?? "/3/device/\(token)"), (":authority", authority),
        ]
        var apns: [(String, String?)] = [
            ("authorization", "bearer " + (jwt ?? defaultJWT)),
            ("apns-push-type", "liveactivity"),
            ("apns-topic", EndpointHarness.topic),
            ("apns-priority", "10"),
        ]
        for (name, value) in overrides {
            if let index = apns.firstIndex(where: { $0.0 == name }) { apns[index].1 = value } else { apns.append((name, value)) }
        }
        for (name, value) in apns { if let value { headers.append((name, value)) } }
        headers += extra
        return headers
    }
}
