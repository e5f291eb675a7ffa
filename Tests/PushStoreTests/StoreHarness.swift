import APNsCore
import Foundation
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

/// One empty database for one test, and the means to open more stores on it (a second server
/// instance, or the same one after a restart).
struct StoreHarness: Sendable {
    let kind: StoreKind
    /// SQLite: the file. PostgreSQL: the schema.
    let location: String

    static func make(_ kind: StoreKind) -> StoreHarness {
        switch kind {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("livepush-store-test-\(UUID().uuidString.lowercased()).sqlite").path
            return StoreHarness(kind: kind, location: path)
        case .postgres:
            let schema = "livepush_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
                .prefix(16)
            return StoreHarness(kind: kind, location: String(schema))
        }
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "livepush.store.test")
        logger.logLevel = .warning
        return logger
    }

    /// Opens a store on this harness's database (creating the schema the first time).
    func open() async throws -> any PushStore {
        switch kind {
        case .sqlite:
            return try await SQLitePushStore(path: location, logger: Self.quietLogger)
        case .postgres:
            let url = try #require(StoreKind.postgresURL)
            return try await PostgresPushStore(
                url: url, schema: location, maximumConnections: 2, logger: Self.quietLogger)
        }
    }

    /// Deletes the database.
    func destroy() async throws {
        switch kind {
        case .sqlite:
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: location + suffix)
            }
        case .postgres:
            let store = try await open()
            let postgres = try #require(store as? PostgresPushStore)
            let schema = location
            try await postgres.backend.transaction { session throws(PushStoreError) in
                try await session.execute("DROP SCHEMA \(schema) CASCADE")
            }
            await store.close()
        }
    }
}

/// Runs `body` with a fresh store of `kind`, then closes and deletes it.
func withStore(
    _ kind: StoreKind, _ body: (any PushStore, StoreHarness) async throws -> Void
) async throws {
    let harness = StoreHarness.make(kind)
    let store = try await harness.open()
    do {
        try await body(store, harness)
    } catch {
        await store.close()
        try await harness.destroy()
        throw error
    }
    await store.close()
    try await harness.destroy()
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
            activityId: id, pushToken: token, bundleId: "com.example.app", attributesType: "MatchAttributes",
            environment: .sandbox, userId: user, groups: groups, frequentPushesEnabled: false, at: at)
    }

    static func payload(_ score: Int) -> Data {
        Data(#"{"aps":{"timestamp":\#(score),"event":"update","content-state":{"score":\#(score)}}}"#.utf8)
    }

    static func update(
        _ activityId: String, score: Int = 1, importance: PushImportance = .routine, at: Date = start,
        pushId: UUID = UUID()
    ) -> OutboxItem {
        OutboxItem(
            pushId: pushId, target: .activity(id: activityId), kind: .update, payload: payload(score),
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
