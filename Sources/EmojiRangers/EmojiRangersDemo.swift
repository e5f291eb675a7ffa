import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushAPIClient
import LivePushServer
import Logging
import PushStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Synchronization
#endif

/// The whole Emoji Rangers demo in one process: the APNs simulator with its dashboard, SQLite in a
/// temporary folder, the LivePush server (trusting the simulator's CA, signing with a key the simulator
/// trusts), and the backend that pushes through the API. `start()` brings it up; `play(progress:)` adds one
/// iPhone per player, whose app reports its tokens through LivePushKit while the adventure plays;
/// `shutdown()` stops everything and removes the folder.
package final class EmojiRangersDemo: Sendable {
    /// The Emoji Rangers app's bundle id.
    package static let bundleID = "com.example.emojirangers"
    /// The app's `ActivityAttributes` type.
    package static let attributesType = "AdventureAttributes"
    /// The group every party member's activity is registered in.
    package static let partyGroup = "rangers-party"

    package let options: DemoOptions
    /// The simulated APNs and iPhones.
    package let simulator: Simulator
    let server: LivePushServer
    let store: any PushStore
    let apns: APNsClient
    let backend: Client
    let session: URLSession
    let directory: URL
    let logger: Logger
    let played = Mutex(false)

    init(
        options: DemoOptions, simulator: Simulator, server: LivePushServer, store: any PushStore, apns: APNsClient,
        backend: Client, session: URLSession, directory: URL, logger: Logger
    ) {
        self.options = options
        self.simulator = simulator
        self.server = server
        self.store = store
        self.apns = apns
        self.backend = backend
        self.session = session
        self.directory = directory
        self.logger = logger
    }

    /// The dashboard, served by the simulator's control port.
    package var dashboardURL: String { "http://127.0.0.1:\(simulator.controlPort ?? 0)\(DashboardRoutes.path)" }
    /// The LivePush server's API.
    package var serverURL: String { "http://127.0.0.1:\(server.port ?? 0)" }
    /// The simulator's APNs endpoint.
    package var apnsURL: String { "https://127.0.0.1:\(simulator.apnsPort ?? 0)" }
    /// The temporary folder with the SQLite database, the simulator's certificates and the apps' journals.
    package var dataDirectory: String { directory.path }

    /// Starts the simulator, the store, the APNs client and the server.
    package static func start(options: DemoOptions, logger: Logger = Logger(label: "livepush.demo")) async throws(DemoError) -> EmojiRangersDemo {
        try options.validate()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepush-demo-\(UUID().uuidString.prefix(8).lowercased())")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .startFailed(component: "temporary folder", detail: error.localizedDescription)
        }
        var cleanup = Cleanup(directory: directory)
        do {
            let simulator = try await startSimulator(options: options, directory: directory, logger: logger)
            cleanup.simulator = simulator
            let key = APNsSigningKey.generate()
            let keyID = "RANGERKEY1"
            let teamID = "EMOJITEAM1"
            simulator.keys.register(keyID: keyID, teamID: teamID, publicKey: key.publicKey)
            let apns = try await makeClient(simulator: simulator, key: key, keyID: keyID, teamID: teamID, logger: logger)
            cleanup.apns = apns
            let store: any PushStore = try await DemoError.starting("SQLite store") {
                try await SQLitePushStore(path: directory.appendingPathComponent("livepush.sqlite").path, logger: logger)
            }
            cleanup.store = store
            let backendKey = APIKeys.generate(scope: .backend)
            let server = try await startServer(
                options: options, store: store, apns: apns, backendKey: backendKey, clock: simulator.clock, logger: logger)
            cleanup.server = server
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 30
            let session = URLSession(configuration: configuration)
            let base = "http://127.0.0.1:\(server.port ?? 0)"
            // The backend talks to the server through the generated client with its key; the players' apps
            // (LivePushKit) with the user tokens it mints for them.
            return EmojiRangersDemo(
                options: options, simulator: simulator, server: server, store: store, apns: apns,
                backend: try Client.livePush(baseURL: base, key: backendKey, session: session), session: session,
                directory: directory, logger: logger
            )
        } catch let error as DemoError {
            await cleanup.run()
            throw error
        } catch {
            await cleanup.run()
            throw .startFailed(component: "demo", detail: "\(error)")
        }
    }

    /// Stops the server, the APNs client, the store and the simulator; removes the folder.
    package func shutdown() async {
        session.finishTasksAndInvalidate()
        var cleanup = Cleanup(directory: directory)
        cleanup.simulator = simulator
        cleanup.apns = apns
        cleanup.store = store
        cleanup.server = server
        await cleanup.run()
    }

    // MARK: - Start-up steps

    private static func startSimulator(options: DemoOptions, directory: URL, logger: Logger) async throws -> Simulator {
        var configuration = SimulatorConfiguration()
        configuration.endpoint.host = "127.0.0.1"
        configuration.endpoint.port = options.apnsPort
        configuration.controlHost = "127.0.0.1"
        configuration.controlPort = options.controlPort
        configuration.dataDirectory = directory.appendingPathComponent("simulator").path
        configuration.shutdownGracePeriod = 1
        let simulator = try await DemoError.starting("simulator") { try Simulator(configuration: configuration, logger: logger) }
        try await DemoError.starting("simulator") { try await simulator.start() }
        do {
            // The app as installed on every iPhone: its ActivityAttributes type with the ContentState it
            // decodes, and its Localizable.strings for the alert keys.
            _ = try await simulator.world.registerApp(
                AppRegistration(
                    bundleID: bundleID, environment: APNsEnvironment.sandbox.rawValue,
                    localizations: AdventureLocalization.englishTable,
                    attributesTypes: DeclaredAttributesTypes([
                        attributesType: AdventureContentState.schema, SideQuest.attributesType: AdventureContentState.schema,
                    ])
                ))
        } catch {
            await simulator.shutdown()
            throw DemoError.device(error.description)
        }
        return simulator
    }

    private static func makeClient(
        simulator: Simulator, key: APNsSigningKey, keyID: String, teamID: String, logger: Logger
    ) async throws(DemoError) -> APNsClient {
        try await DemoError.starting("APNs client") {
            try APNsClient(
                configuration: APNsClientConfiguration(
                    endpoint: APNsEndpoint(host: "127.0.0.1", port: simulator.apnsPort ?? 0, environment: .sandbox),
                    channelManagementEndpoint: APNsEndpoint(host: "127.0.0.1", port: simulator.managePort ?? 0),
                    additionalTrustRootFile: simulator.caCertificatePath, trustOnlyAdditionalRoots: true,
                    maximumConnections: 2, connectTimeout: .seconds(10), requestTimeout: .seconds(10),
                    retry: ServerConfiguration().apnsRetry  // the demo server's outbox backs off, not the client
                ),
                tokens: try ProviderTokenSource(key: key, keyID: keyID, teamID: teamID),
                logger: logger
            )
        }
    }

    private static func startServer(
        options: DemoOptions, store: any PushStore, apns: APNsClient, backendKey: String, clock: any WallClock, logger: Logger
    ) async throws -> LivePushServer {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = options.serverPort
        configuration.environment = .sandbox
        configuration.workerCount = 2
        configuration.pollInterval = 0.02
        configuration.retryBaseDelay = 0.1
        configuration.retryMaximumDelay = 1
        configuration.backendKeys = [backendKey]
        // The backend signs in every spectator at once (a user token each, up to 10,000), faster than the
        // per-key limit a production backend is held to.
        configuration.backendRateLimit = 0
        // The long adventure: the server's lifecycle sweep (which starts renewals) follows the simulator's
        // clock, a simulated minute apart, so that moving the clock forward renews at once.
        if options.long { configuration.lifecycleInterval = 60 }
        let server = try await DemoError.starting("LivePush server") {
            try LivePushServer(
                configuration: configuration, store: store, sender: apns, clock: options.long ? clock : SystemWallClock(), logger: logger)
        }
        try await DemoError.starting("LivePush server") { try await server.start() }
        return server
    }
}

/// Stops whatever has been started, in reverse order, and removes the temporary folder.
private struct Cleanup {
    let directory: URL
    var simulator: Simulator?
    var apns: APNsClient?
    var store: (any PushStore)?
    var server: LivePushServer?

    func run() async {
        await server?.shutdown()
        await store?.close()
        await apns?.shutdown()
        await simulator?.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}
