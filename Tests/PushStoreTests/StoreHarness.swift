import APNsCore
import Foundation
import LivePushTesting
import Logging
import Testing

@testable import PushStore

/// The stores the conformance tests run against: SQLite always, PostgreSQL when
/// `LIVEPUSH_TEST_POSTGRES_URL` is set (`eval "$(scripts/postgres-test-db.sh)"` sets it).
enum StoreKind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let postgresURL: String? = {
        let value = ProcessInfo.processInfo.environment["LIVEPUSH_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static let postgresSkipMessage =
        "PostgreSQL store tests are skipped: set LIVEPUSH_TEST_POSTGRES_URL to enable them "
        + "(run `eval \"$(scripts/postgres-test-db.sh)\"`, which installs and starts PostgreSQL and prints the URL)"

    /// The kinds to run now.
    static var available: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// One empty database for one test (``withDatabase(_:_:)``), and the means to open stores on it
/// (``withReopened(_:_:)``: a second server instance, or the same one after a restart).
struct StoreHarness: Sendable {
    let kind: StoreKind
    /// SQLite: the file. PostgreSQL: the schema.
    let location: String

    static var quietLogger: Logger {
        var logger = Logger(label: "livepush.store.test")
        logger.logLevel = .warning
        return logger
    }

    /// Opens a store on this harness's database (creating the schema the first time); only the scoped
    /// helpers below call it, so every store they open is closed.
    fileprivate func open() async throws -> any PushStore {
        switch kind {
        case .sqlite:
            return try await SQLitePushStore(path: location, logger: Self.quietLogger)
        case .postgres:
            let url = try #require(StoreKind.postgresURL)
            return try await PostgresPushStore(
                url: url, schema: location, maximumConnections: 2, logger: Self.quietLogger)
        }
    }
}

/// Runs `body` with a new empty database of `kind`: a SQLite file in a temporary folder (deleted with
/// the folder), or a PostgreSQL schema of its own (dropped); afterwards, whatever `body` does.
func withDatabase<Result>(
    _ kind: StoreKind, isolation: isolated (any Actor)? = #isolation, _ body: (StoreHarness) async throws -> Result
) async throws -> Result {
    switch kind {
    case .sqlite:
        return try await withTemporaryDirectory(prefix: "livepush-store-test") { folder in
            try await body(StoreHarness(kind: kind, location: folder.appendingPathComponent("store.sqlite").path))
        }
    case .postgres:
        let schema = "livepush_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        return try await withScopedResource {
            StoreHarness(kind: kind, location: String(schema))
        } stop: { harness in
            _ = try? await withReopened(harness) { store in
                try await #require(store as? PostgresPushStore).dropSchema(harness.location)
            }
        } _: { harness in
            try await body(harness)
        }
    }
}

/// Runs `body` with a store opened on `harness`'s database (another instance, or a restart), and closes
/// it afterwards, whatever `body` does. A store returned from `body` is closed.
func withReopened<Result>(
    _ harness: StoreHarness, isolation: isolated (any Actor)? = #isolation, _ body: (any PushStore) async throws -> Result
) async throws -> Result {
    try await withScopedResource {
        try await harness.open()
    } stop: { store in
        await store.close()
    } _: { store in
        try await body(store)
    }
}

/// ``withReopened(_:_:)`` with `count` stores opened at once (instances starting together).
func withReopenedConcurrently<Result>(
    _ harness: StoreHarness, count: Int, isolation: isolated (any Actor)? = #isolation,
    _ body: ([any PushStore]) async throws -> Result
) async throws -> Result {
    try await withScopedResource {
        try await withThrowingTaskGroup(of: (any PushStore).self) { group in
            for _ in 0..<count { group.addTask { try await harness.open() } }
            return try await group.reduce(into: [any PushStore]()) { $0.append($1) }
        }
    } stop: { stores in
        for store in stores { await store.close() }
    } _: { stores in
        try await body(stores)
    }
}

/// Runs `body` with a fresh store of `kind`, then closes and deletes it.
func withStore(
    _ kind: StoreKind, _ body: (any PushStore, StoreHarness) async throws -> Void
) async throws {
    try await withDatabase(kind) { harness in
        try await withReopened(harness) { store in
            try await body(store, harness)
        }
    }
}

// MARK: Fixtures

enum Fixture {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    static func token() -> DeviceToken {
        DeviceToken(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    static func registration(
        _ id: String, token: DeviceToken = Fixture.token(), user: String? = "user-1", groups: [String] = [],
        at: Date = start
    ) -> ActivityRegistration {
        ActivityRegistration(
            activityID: id, pushToken: token, bundleID: "com.example.app", attributesType: "MatchAttributes",
            environment: .sandbox, userID: user, groups: groups, frequentPushesEnabled: false, at: at)
    }

    static func payload(_ score: Int) -> Data {
        Data(#"{"aps":{"timestamp":\#(score),"event":"update","content-state":{"score":\#(score)}}}"#.utf8)
    }

    static func update(
        _ activityID: String, score: Int = 1, importance: PushImportance = .routine, at: Date = start,
        pushID: UUID = UUID()
    ) -> OutboxItem {
        OutboxItem(
            pushID: pushID, target: .activity(id: activityID), kind: .update, payload: payload(score),
            priority: importance == .routine ? .conservesPower : .immediate, importance: importance, acceptedAt: at)
    }
}

// MARK: Error checks

/// The error `body` threw, nil when it returned.
func caught<T>(_ body: () async throws -> T) async -> PushStoreError? {
    do {
        _ = try await body()
        return nil
    } catch let error as PushStoreError {
        return error
    } catch {
        return .database(detail: "not a PushStoreError: \(error)")
    }
}

extension PushStoreError {
    var isConflict: Bool {
        if case .conflict = self { return true }
        return false
    }

    /// The field of an `invalidInput`, nil for other cases.
    var invalidField: String? {
        if case .invalidInput(let field, _) = self { return field }
        return nil
    }
}
