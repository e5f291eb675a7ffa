import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Logging

/// A running local APNs, as ``withSimulator(_:isolation:_:)`` hands it to a test: where it listens, the
/// provider key it trusts, clients for it, and its simulated iPhones.
public final class SimulatedAPNs: Sendable {
    /// The simulator itself: devices (`world`), fault injection (`faults`), trusted keys (`keys`).
    public let simulator: Simulator
    /// The provider key the simulator trusts, with its key id and team id.
    public let signingKey: APNsSigningKey
    public let keyID = "SIMKEY0001"
    public let teamID = "SIMTEAM001"
    /// The app's bundle id (``SimulatorOptions/bundleID``).
    public let bundleID: String
    /// The declared `ActivityAttributes` types; the first is the default of ``startActivity(on:attributesType:attributes:contentState:)``.
    public let attributesTypes: [String]
    /// The folder of the simulator's certificates, deleted with it.
    public let directory: URL
    /// The simulated iPhones' time: ``SimulatorOptions/clock`` at the configuration's `clockRate`, moved
    /// forward by `POST /v1/clock` (the simulator's `clock`).
    public let clock: any WallClock

    init(simulator: Simulator, signingKey: APNsSigningKey, options: SimulatorOptions, directory: URL, clock: any WallClock) {
        self.simulator = simulator
        self.signingKey = signingKey
        self.bundleID = options.bundleID
        self.attributesTypes = options.attributesTypes
        self.directory = directory
        self.clock = clock
    }

    static func start(_ options: SimulatorOptions, directory: URL) async throws -> SimulatedAPNs {
        var configuration = SimulatorConfiguration()
        configuration.endpoint.host = "127.0.0.1"
        configuration.endpoint.port = 0
        configuration.endpoint.managePort = 0
        configuration.controlHost = "127.0.0.1"
        configuration.controlPort = 0
        configuration.dataDirectory = directory.path
        configuration.faultSeed = options.faultSeed
        configuration.shutdownGracePeriod = 0.2
        configuration.deviceRules.acceptUnknownTokens = options.acceptUnknownTokens
        if !options.appliesTooManyRequests { configuration.deviceRules.tooManyRequests = nil }
        if let clock = options.clock { configuration.endpoint.clock = clock }
        options.configure(&configuration)
        var logger = Logger(label: "livepush.testing.simulator")
        logger.logLevel = options.logLevel
        let simulator = try Simulator(configuration: configuration, logger: logger)
        let key = APNsSigningKey.generate()
        let apns = SimulatedAPNs(simulator: simulator, signingKey: key, options: options, directory: directory, clock: simulator.clock)
        simulator.keys.register(keyID: apns.keyID, teamID: apns.teamID, publicKey: key.publicKey)
        try await simulator.start()
        do {
            if !options.attributesTypes.isEmpty {
                _ = try await simulator.world.registerApp(
                    AppRegistration(
                        bundleID: options.bundleID, environment: "sandbox",
                        attributesTypes: DeclaredAttributesTypes(names: options.attributesTypes)))
            }
        } catch {
            await simulator.shutdown()
            throw error
        }
        return apns
    }

    // MARK: Where it listens

    /// The APNs endpoint (HTTP/2 + TLS) on 127.0.0.1.
    public var endpoint: APNsEndpoint { APNsEndpoint(host: "127.0.0.1", port: simulator.apnsPort ?? 0, environment: .sandbox) }
    /// The broadcast channel management endpoint.
    public var managementEndpoint: APNsEndpoint { APNsEndpoint(host: "127.0.0.1", port: simulator.managePort ?? 0) }
    /// The CA certificate (PEM) a client must trust to reach the simulator.
    public var caCertificatePath: String { simulator.caCertificatePath }
    /// The control API and dashboard, `http://127.0.0.1:PORT`.
    public var controlURL: URL? { simulator.controlPort.map { URL(string: "http://127.0.0.1:\($0)")! } }

    // MARK: Clients

    /// Provider tokens signed with the trusted key, their `iat` on the clock the APNs endpoint checks it
    /// against (``SimulatorOptions/clock``, else the system's): with a `ManualWallClock` that stands still,
    /// a token signed on the system's clock would look issued in the future once the test ran a minute.
    public func tokens() throws -> ProviderTokenSource {
        try ProviderTokenSource(key: signingKey, keyID: keyID, teamID: teamID, clock: simulator.configuration.endpoint.clock)
    }

    /// A client configuration that reaches this simulator (its CA trusted, nothing else), for a client
    /// the test makes itself. Its deadlines are long (30 s to connect, 60 s for an answer): on a busy
    /// machine an answer may take seconds, and a test about deadlines sets its own.
    public func clientConfiguration(
        maximumConnections: Int = 1, connectTimeout: Duration = .seconds(30), requestTimeout: Duration = .seconds(60),
        retry: APNsRetryPolicy = APNsRetryPolicy(maximumAttempts: 5, baseDelay: 0.01, maximumDelay: 0.05)
    ) -> APNsClientConfiguration {
        APNsClientConfiguration(
            endpoint: endpoint, channelManagementEndpoint: managementEndpoint,
            additionalTrustRootFile: caCertificatePath, trustOnlyAdditionalRoots: true,
            maximumConnections: maximumConnections, connectTimeout: connectTimeout, requestTimeout: requestTimeout, retry: retry)
    }

    /// Runs `body` with an `APNsClient` connected to this simulator with its trusted key, and shuts the
    /// client down afterwards.
    public func withClient<Result>(
        _ configuration: APNsClientConfiguration? = nil,
        tokens: (any ProviderTokenProviding)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (APNsClient) async throws -> Result
    ) async throws -> Result {
        try await withAPNsClient(configuration ?? clientConfiguration(), tokens: try tokens ?? self.tokens(), body)
    }

    // MARK: iPhones and activities

    /// A new simulated iPhone with the app installed: its ``SimulatedIPhone/id`` is what
    /// `SimulatedActivityAdapter` and the control API take, its ``SimulatedIPhone/pushToStartToken`` what
    /// the app would report for push-to-start. ``startActivity(on:attributesType:attributes:contentState:)``
    /// starts Live Activities on it.
    ///
    /// ```swift
    /// let iPhone = try await apns.addIPhone(name: "Ava's iPhone")
    /// let activity = try await apns.startActivity(on: iPhone, contentState: ["score": 0])
    /// ```
    public func addIPhone(name: String = "iPhone", frequentPushesEnabled: Bool? = nil) async throws -> SimulatedIPhone {
        let created = try await simulator.world.addDevice(
            DeviceRegistration(
                name: name, bundleID: bundleID, environment: "sandbox", frequentPushesEnabled: frequentPushesEnabled))
        return SimulatedIPhone(id: created.deviceID, name: name, pushToStartToken: created.pushToStartToken)
    }

    /// Starts a Live Activity on `iPhone` (a new one when nil), as the app would with
    /// `Activity.request(…, pushType: .token)`; returns its id and update token.
    public func startActivity(
        on iPhone: SimulatedIPhone? = nil, attributesType: String? = nil, attributes: JSONValue = [:],
        contentState: JSONValue
    ) async throws -> SimulatedActivity {
        let device: SimulatedIPhone
        if let iPhone { device = iPhone } else { device = try await addIPhone() }
        let type = attributesType ?? attributesTypes.first ?? "AdventureAttributes"
        let created = try await simulator.world.startActivity(
            deviceID: device.id, ActivityRequest(attributesType: type, attributes: attributes, contentState: contentState))
        return SimulatedActivity(id: created.activityID, pushToken: created.pushToken, iPhone: device)
    }

    /// What the activity shows now.
    public func contentState(of activity: SimulatedActivity) async throws -> JSONValue {
        try await simulator.world.activity(id: activity.id).contentState
    }

    /// The activity as the simulated iPhone holds it: state, content, stale and dismissal dates.
    public func snapshot(of activity: SimulatedActivity) async throws -> ActivitySnapshot {
        try await simulator.world.activity(id: activity.id)
    }

    // MARK: Requests

    /// A Live Activity update for `activity` at priority 5, timestamped now (the simulator's clock).
    public func update(
        _ activity: SimulatedActivity, contentState: JSONValue, priority: APNsPriority = .conservesPower
    ) throws -> APNsRequest {
        let payload = LiveActivityPayload.update(contentState: contentState, timestamp: clock.now())
        return try LiveActivityPush(token: activity.pushToken, bundleID: bundleID, payload: payload, priority: priority).makeRequest()
    }
}
