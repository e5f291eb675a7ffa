import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import Logging
@testable import PushStore
import Testing

/// The stores the end-to-end tests run on: SQLite always, PostgreSQL when `LIVEPUSH_TEST_POSTGRES_URL`
/// is set (`eval "$(scripts/postgres-test-db.sh)"` sets it).
enum TestDatabase: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let postgresURL: String? = {
        let value = ProcessInfo.processInfo.environment["LIVEPUSH_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    /// The databases to run on now; says once how to enable PostgreSQL when it is not.
    static let available: [TestDatabase] = {
        if postgresURL == nil {
            print("LivePushServerTests: PostgreSQL end-to-end runs are skipped; set LIVEPUSH_TEST_POSTGRES_URL to enable them (eval \"$(scripts/postgres-test-db.sh)\")")
            return [.sqlite]
        }
        return [.sqlite, .postgres]
    }()

    var testDescription: String { rawValue }
}

/// A server on 127.0.0.1:0 over a SQLite store in a fresh temporary directory.
final class ServerHarness: @unchecked Sendable {
    static let appKey = "test-app-key-0123456789"
    static let backendKey = "test-backend-key-0123456789"
    /// The webhook secret of ``ServerConfiguration/useWebhook(_:)``.
    static let webhookSecret = "test-webhook-secret-0123456789abcdef"

    let directory: URL
    let databasePath: String
    private(set) var store: any PushStore
    private(set) var server: LivePushServer
    private(set) var http: TestHTTP
    let sender: any PushSending
    /// Servers replaced by ``replaceWithoutShutdown(configure:)``, still running, with their stores.
    private var abandoned: [(server: LivePushServer, store: any PushStore)] = []
    let configure: @Sendable (inout ServerConfiguration) -> Void
    /// The server's and the store's logger, when a test reads what they log (warnings only otherwise).
    let logger: Logger?

    /// Starts a server; `configure` adjusts the test defaults (fast polling and retries, no sweeps).
    let clock: any WallClock
    let database: TestDatabase
    /// The PostgreSQL schema of this harness (one per test).
    let schema = "livepush_server_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)

    init(sender: any PushSending = FakeSender(), database: TestDatabase = .sqlite, directory: URL? = nil,
         clock: any WallClock = SystemWallClock(), logger: Logger? = nil,
         configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }) async throws {
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("livepush-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.databasePath = directory.appendingPathComponent("store.sqlite").path
        self.sender = sender
        self.configure = configure
        self.clock = clock
        self.database = database
        self.logger = logger
        let (store, server, port) = try await Self.boot(
            store: try await Self.openStore(database, path: databasePath, schema: schema, logger: logger), sender: sender, clock: clock,
            logger: logger, configure: configure)
        self.store = store
        self.server = server
        self.http = TestHTTP(port: port)
    }

    private static func openStore(_ database: TestDatabase, path: String, schema: String, logger given: Logger?) async throws -> any PushStore {
        var logger = given ?? Logger(label: "livepush.store.test")
        if given == nil { logger.logLevel = .warning }
        switch database {
        case .sqlite:
            return try await SQLitePushStore(path: path, logger: logger)
        case .postgres:
            let url = try #require(TestDatabase.postgresURL)
            return try await PostgresPushStore(url: url, schema: schema, maximumConnections: 4, logger: logger)
        }
    }

    private static func boot(store: any PushStore, sender: any PushSending, clock: any WallClock, logger given: Logger?,
                             configure: @Sendable (inout ServerConfiguration) -> Void) async throws -> (any PushStore, LivePushServer, Int) {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workerCount = 2
        configuration.pollInterval = 0.02
        configuration.retryBaseDelay = 0.02
        configuration.retryMaximumDelay = 0.1
        configuration.webhookRetryBaseDelay = 0.02
        configuration.webhookRetryMaximumDelay = 0.1
        configuration.lifecycleInterval = 3600
        configuration.appKeys = [appKey]
        configuration.backendKeys = [backendKey]
        configure(&configuration)
        var logger = given ?? Logger(label: "livepush.server.test")
        if given == nil { logger.logLevel = .warning }
        let server = try LivePushServer(configuration: configuration, store: store, sender: sender, clock: clock, logger: logger)
        let port = try await server.start()
        return (store, server, port)
    }

    /// Graceful stop and a new server process on the same database file.
    func restart(configure: (@Sendable (inout ServerConfiguration) -> Void)? = nil) async throws {
        await server.shutdown()
        await store.close()
        let (store, server, port) = try await Self.boot(
            store: try await Self.openStore(database, path: databasePath, schema: schema, logger: logger), sender: sender, clock: clock,
            logger: logger, configure: configure ?? self.configure)
        self.store = store
        self.server = server
        self.http = TestHTTP(port: port)
    }

    /// A crash: a new server process on the same database while the old one is abandoned without a
    /// shutdown (it holds its claims and keeps running, as a hung process would, until ``stop()``).
    func replaceWithoutShutdown(configure: @escaping @Sendable (inout ServerConfiguration) -> Void) async throws {
        abandoned.append((server, store))
        let (store, server, port) = try await Self.boot(
            store: try await Self.openStore(database, path: databasePath, schema: schema, logger: logger), sender: sender, clock: clock,
            logger: logger, configure: configure)
        self.store = store
        self.server = server
        self.http = TestHTTP(port: port)
    }

    /// Stops the server and deletes its database (the SQLite folder, or the PostgreSQL schema).
    func stop() async {
        for (server, store) in abandoned {
            await server.shutdown()
            await store.close()
        }
        abandoned = []
        await server.shutdown()
        if let postgres = store as? PostgresPushStore {
            let schema = schema
            try? await postgres.backend.transaction { session throws(PushStoreError) in
                try await session.execute("DROP SCHEMA \(schema) CASCADE")
            }
        }
        await store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits (polling, bounded) until `condition` holds; false if it never did.
    static func eventually(timeout: TimeInterval = 20, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}

extension ServerConfiguration {
    /// POST webhook events to `url`, signed with ``ServerHarness/webhookSecret``.
    mutating func useWebhook(_ url: URL) {
        webhookURL = url
        webhookSecret = ServerHarness.webhookSecret
        // The test receivers listen on 127.0.0.1, which the webhook refuses otherwise.
        webhookAllowPrivateTargets = true
    }
}

/// A registration body for tests.
func registrationJSON(activityId: String, token: String, bundleId: String = "com.example.rangers",
                      environment: String = "sandbox", groups: [String] = [], userId: String? = nil) -> String {
    let groupList = groups.map { "\"\($0)\"" }.joined(separator: ",")
    let user = userId.map { ",\"userId\":\"\($0)\"" } ?? ""
    return #"{"activityId":"\#(activityId)","pushToken":"\#(token)","bundleId":"\#(bundleId)","attributesType":"AdventureAttributes","environment":"\#(environment)","groups":[\#(groupList)]\#(user)}"#
}

extension PushStore {
    /// How many activities are stored (read from the table: no server code needs the count).
    func activityCount() async throws -> Int {
        let store = try #require(self as? SQLPushStore)
        return try await store.backend.read { session throws(PushStoreError) in
            try await session.first("SELECT COUNT(*) AS n FROM activities")?.int("n") ?? 0
        }
    }
}

extension ServerHarness {
    /// The progress of the group send a `POST /v1/groups/…` answered, once it has finished (or what it
    /// was when `timeout` ran out).
    func finishedGroupSend(_ answer: TestResponse, timeout: TimeInterval = 20) async throws -> JSONValue {
        let sendId = try #require(answer.json?["sendId"]?.stringValue, "not a group send answer: \(answer.text)")
        var progress = JSONValue.null
        _ = try await Self.eventually(timeout: timeout) {
            progress = try await http.get("/v1/sends/\(sendId)", key: Self.backendKey).json ?? .null
            return progress["state"]?.stringValue == "finished"
        }
        return progress
    }
}
