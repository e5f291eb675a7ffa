import APNsCore
import Foundation
import LivePushServer
import Logging
import PushStore
import Synchronization

/// `livepush serve` as ``withServer(_:over:isolation:_:)`` hands it to a test: where it listens and the
/// development keys it accepts; and for our own tests its store, a restart and a crash.
public final class TestServer: Sendable {

    /// A development app key the server accepts: it acts for any user (the server says so in its log).
    public static let appKey = "test-app-key-0123456789"
    /// A development backend key the server accepts.
    public static let backendKey = "test-backend-key-0123456789"
    /// A development operator key the server accepts: the provider console's scope.
    public static let operatorKey = "test-operator-key-0123456789"
    /// The secret of webhooks set with `ServerConfiguration.useWebhook(_:)`.
    public static let webhookSecret = "test-webhook-secret-0123456789abcdef"

    public var appKey: String { Self.appKey }
    public var backendKey: String { Self.backendKey }
    public var operatorKey: String { Self.operatorKey }

    private struct Running {
        var server: LivePushServer
        var store: any PushStore
        var port: Int
    }

    /// The running server and its store (replaced by a restart or a crash), and the servers replaced
    /// by ``replaceWithoutShutdown(configure:)``, still running, with their stores.
    private struct Servers {
        var running: Running
        var abandoned: [Running] = []
    }

    private let servers: Mutex<Servers>
    private let options: ServerOptions
    private let sender: any PushSending
    private let ownsDirectory: Bool

    /// The folder of the SQLite file.
    package let directory: URL
    package let databasePath: String
    /// The PostgreSQL schema of this server (one per test).
    package let schema: String

    private init(options: ServerOptions, sender: any PushSending, directory: URL, ownsDirectory: Bool, schema: String, running: Running) {
        self.options = options
        self.sender = sender
        self.directory = directory
        self.ownsDirectory = ownsDirectory
        self.schema = schema
        databasePath = Self.databasePath(in: directory)
        servers = Mutex(Servers(running: running))
    }

    static func start(_ options: ServerOptions, sender: any PushSending) async throws -> TestServer {
        let directory =
            options.directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("livepush-server-\(UUID().lowercased)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let schema = "livepush_test_" + UUID().lowercased.replacingOccurrences(of: "-", with: "").prefix(16)
        do {
            let running = try await boot(options, sender: sender, directory: directory, schema: schema, configure: options.configure)
            return TestServer(
                options: options, sender: sender, directory: directory, ownsDirectory: options.directory == nil, schema: String(schema),
                running: running)
        } catch {
            if options.directory == nil { try? FileManager.default.removeItem(at: directory) }
            throw error
        }
    }

    // MARK: Where it listens

    /// The port of the API on 127.0.0.1.
    public var port: Int { servers.withLock { $0.running.port } }
    /// `http://127.0.0.1:PORT`: the API's base URL.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The store the server runs on (our own tests read it directly).
    package var store: any PushStore { servers.withLock { $0.running.store } }
    /// The server (our own tests read its metrics).
    package var server: LivePushServer { servers.withLock { $0.running.server } }

    // MARK: Restarts and crashes

    /// A graceful stop and a new server process on the same database.
    package func restart(configure: (@Sendable (inout ServerConfiguration) -> Void)? = nil) async throws {
        let old = servers.withLock { $0.running }
        await old.server.shutdown()
        await old.store.close()
        let new = try await Self.boot(options, sender: sender, directory: directory, schema: schema, configure: configure ?? options.configure)
        servers.withLock { $0.running = new }
    }

    /// A crash: a new server process on the same database while the old one is abandoned without a
    /// shutdown (it holds its claims and keeps running, as a hung process would, until the test ends).
    package func replaceWithoutShutdown(configure: @escaping @Sendable (inout ServerConfiguration) -> Void) async throws {
        let new = try await Self.boot(options, sender: sender, directory: directory, schema: schema, configure: configure)
        servers.withLock { servers in
            servers.abandoned.append(servers.running)
            servers.running = new
        }
    }

    /// Stops every server this test started and deletes its database.
    func stop() async {
        let all = servers.withLock { servers in
            defer { servers.abandoned = [] }
            return servers.abandoned + [servers.running]
        }
        for each in all { await each.server.shutdown() }
        let store = all.last?.store
        if let postgres = store as? PostgresPushStore { try? await postgres.dropSchema(schema) }
        for each in all { await each.store.close() }
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: Booting

    /// The test defaults (fast polling and retries, long timeouts, lifecycle sweeps only on a scaled clock, the
    /// development keys), then `options.configure`.
    package static func configuration(_ options: ServerOptions, configure: (@Sendable (inout ServerConfiguration) -> Void)? = nil)
        -> ServerConfiguration
    {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workerCount = 2
        configuration.pollInterval = 0.02
        configuration.retryBaseDelay = 0.02
        configuration.retryMaximumDelay = 0.1
        configuration.webhookRetryBaseDelay = 0.02
        configuration.webhookRetryMaximumDelay = 0.1
        // A slow answer on a busy machine is waited for rather than turned into a retry: on a clock the test
        // moves itself, a retry would wait until the test moves it.
        configuration.webhookTimeout = 60
        // No sweeps on the system's clock (tests sweep when they mean to); on the simulator's clock, one
        // every simulated minute, so that moving the clock forward applies the limits and starts renewals.
        configuration.lifecycleInterval = options.clock is ScaledWallClock ? 60 : 3600
        configuration.appKeys = [appKey]
        configuration.backendKeys = [backendKey]
        configuration.operatorKeys = [operatorKey]
        (configure ?? options.configure)(&configuration)
        return configuration
    }

    private static func databasePath(in directory: URL) -> String {
        directory.appendingPathComponent("store.sqlite").path
    }

    private static func boot(
        _ options: ServerOptions, sender: any PushSending, directory: URL, schema: String,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void
    ) async throws -> Running {
        var logger = options.logger ?? Logger(label: "livepush.testing.server")
        if options.logger == nil { logger.logLevel = options.logLevel }
        let store: any PushStore
        switch options.store {
        case .sqlite:
            store = try await SQLitePushStore(path: databasePath(in: directory), logger: logger)
        case .postgres(let url):
            // A test suite runs many servers at once on few cores: room to connect and migrate when busy.
            store = try await PostgresPushStore(
                url: url, schema: schema, maximumConnections: 4, connectTimeout: .seconds(30), logger: logger)
        }
        do {
            let server = try LivePushServer(
                configuration: configuration(options, configure: configure), store: store, sender: sender, clock: options.clock,
                logger: logger)
            let port = try await server.start()
            return Running(server: server, store: store, port: port)
        } catch {
            await store.close()
            throw error
        }
    }
}

extension ServerConfiguration {
    /// POST webhook events to `url`, signed with ``TestServer/webhookSecret``; loopback allowed.
    package mutating func useWebhook(_ url: URL) {
        webhookURL = url
        webhookSecret = TestServer.webhookSecret
        // Test receivers listen on 127.0.0.1, which the webhook refuses otherwise.
        webhookAllowPrivateTargets = true
    }
}
