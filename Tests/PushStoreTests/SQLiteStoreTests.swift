import Foundation
import Testing

@testable import PushStore

@Suite("SQLitePushStore")
struct SQLiteStoreTests {
    @Test
    func pendingItemsSurviveClosingAndReopening() async throws {
        try await withDatabase(.sqlite) { harness in
            try await withReopened(harness) { store in
                _ = try await store.register(Fixture.registration("a"))
                let items = (0..<50).map { Fixture.update("a-\($0)", score: $0) }
                _ = try await store.enqueue(items)
                _ = try await store.claim(owner: "crashed", limit: 5, now: Fixture.start, lease: 30)
            }

            try await withReopened(harness) { reopened throws in
                #expect(try await reopened.outboxDepth() == 50)
                #expect(try await reopened.activity(id: "a")?.activityID == "a")
                // The 5 claimed by the process that went away come back when their lease ends.
                #expect(try await reopened.claim(owner: "next", limit: 100, now: Fixture.start + 1, lease: 30).count == 45)
                #expect(try await reopened.claim(owner: "next", limit: 100, now: Fixture.start + 30, lease: 30).count == 5)
            }
        }
    }

    @Test
    func usesWALAndRecordsTheSchemaVersion() async throws {
        try await withStore(.sqlite) { store, harness in
            let sqlite = try #require(store as? SQLitePushStore)
            let (mode, versions) = try await sqlite.backend.transaction { session throws(PushStoreError) in
                let mode = try await session.first("PRAGMA journal_mode")?.optionalString("journal_mode")
                let versions = try await session.query("SELECT version FROM schema_migrations ORDER BY version")
                    .map { row throws(PushStoreError) in try row.int("version") }
                return (mode, versions)
            }
            #expect(mode == "wal")
            #expect(versions == Array(1...Schema.versions.count))
            #expect(FileManager.default.fileExists(atPath: harness.location + "-wal"))
        }
    }

    /// Reads run on their own connection: beside an open writing transaction, seeing the last committed state.
    @Test
    func readsDoNotWaitForAWritingTransaction() async throws {
        try await withStore(.sqlite) { store, _ in
            let sqlite = try #require(store as? SQLitePushStore)
            _ = try await store.register(Fixture.registration("before"))
            let inside = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let writer = Task {
                try await sqlite.backend.transaction { session throws(PushStoreError) in
                    try await session.execute("UPDATE activities SET bundle_id = 'changed' WHERE activity_id = 'before'")
                    inside.continuation.yield()
                    for await _ in release.stream { break }  // holds the transaction open
                }
            }
            for await _ in inside.stream { break }
            // The write lock is held: a read must neither wait for it nor see the uncommitted change. A read
            // that waits would wait forever, so after 10 s the transaction is let go and the test fails.
            enum Outcome: Sendable {
                case read(String?)
                case timedOut
            }
            let first = await withTaskGroup(of: Outcome.self) { group in
                group.addTask { .read(try? await store.activity(id: "before")?.bundleID) }
                group.addTask {
                    try? await Task.sleep(for: .seconds(10))
                    return .timedOut
                }
                let first = await group.next()!
                release.continuation.yield()
                group.cancelAll()
                return first
            }
            guard case .read(let bundleID) = first else {
                Issue.record("the read waited for the writing transaction")
                return
            }
            #expect(bundleID == Fixture.registration("before").bundleID)
            try await writer.value
            #expect(try await store.activity(id: "before")?.bundleID == "changed")
        }
    }

    @Test
    func theReadConnectionCannotWrite() async throws {
        try await withStore(.sqlite) { store, _ in
            let sqlite = try #require(store as? SQLitePushStore)
            _ = try await store.register(Fixture.registration("kept"))
            let refused = await caught {
                try await sqlite.backend.read { session throws(PushStoreError) in
                    try await session.execute("DELETE FROM activities")
                }
            }
            guard case .unavailable(let detail) = refused else {
                Issue.record("expected the read connection to refuse the write, got \(String(describing: refused))")
                return
            }
            #expect(detail.contains("readonly"), "\(detail)")
            #expect(try await store.activityCount() == 1)
        }
    }

    /// A task cancelled inside a transaction (a request whose client left, a sweep stopped at shutdown)
    /// still commits or rolls back: the connection is never left inside the transaction.
    @Test
    func aTransactionInACancelledTaskStillEnds() async throws {
        try await withStore(.sqlite) { store, _ in
            let sqlite = try #require(store as? SQLitePushStore)
            let backend = sqlite.backend
            let committed = Task {
                try await backend.transaction { session throws(PushStoreError) in
                    try await session.execute("UPDATE schema_migrations SET version = version")
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            }
            try await committed.value
            let rolledBack = Task {
                try await backend.transaction { session throws(PushStoreError) in
                    try await session.execute("DELETE FROM schema_migrations")
                    withUnsafeCurrentTask { $0?.cancel() }
                    throw PushStoreError.conflict(detail: "changed my mind")
                }
            }
            #expect(await caught { try await rolledBack.value } == .conflict(detail: "changed my mind"))
            // The connection is usable and the rolled-back delete left nothing missing.
            _ = try await store.register(Fixture.registration("after"))
            #expect(try await store.activity(id: "after") != nil)
            let versions = try await backend.transaction { session throws(PushStoreError) in
                try await session.query("SELECT version FROM schema_migrations").count
            }
            #expect(versions == Schema.versions.count)
        }
    }

    /// A database made by the first release (schema version 1) is brought up to date on open, keeping its
    /// activities; an activity from before has no validation time, so a refusal always counts for it.
    @Test
    func aVersionOneDatabaseIsMigrated() async throws {
        let token = Fixture.token()
        try await withDatabase(.sqlite) { harness in
            try await withReopened(harness) { store in
                _ = try await store.register(Fixture.registration("old", token: token, at: Fixture.start + 100))
                let sqlite = try #require(store as? SQLitePushStore)
                try await sqlite.backend.transaction { session throws(PushStoreError) in
                    try await session.execute("ALTER TABLE activities DROP COLUMN token_valid_since")
                    try await session.execute("ALTER TABLE push_to_start_tokens DROP COLUMN token_valid_since")
                    for column in [
                        "outbox.send_id", "deliveries.send_id", "activities.last_accepted_at", "push_to_start_tokens.source",
                        "push_to_start_tokens.refreshed_at", "deliveries.apns_unique_id",
                    ] {
                        let parts = column.split(separator: ".")
                        try await session.execute("ALTER TABLE \(parts[0]) DROP COLUMN \(parts[1])")
                    }
                    for table in [
                        "server_secrets", "idempotency_keys", "webhook_outbox", "channels", "group_sends", "group_send_pages", "group_send_tallies",
                        "app_token_generations", "store_environment", "console_pushes",
                    ] {
                        try await session.execute("DROP TABLE \(table)")
                    }
                    for index in ["activities_user_id", "deliveries_recorded"] {
                        try await session.execute("DROP INDEX \(index)")
                    }
                    try await session.execute("DELETE FROM schema_migrations WHERE version > 1")
                }
            }

            try await withReopened(harness) { reopened in
                let reopenedSQLite = try #require(reopened as? SQLitePushStore)
                let versions = try await reopenedSQLite.backend.transaction { session throws(PushStoreError) in
                    try await session.query("SELECT version FROM schema_migrations ORDER BY version").map { row throws(PushStoreError) in
                        try row.int("version")
                    }
                }
                #expect(versions == Array(1...Schema.versions.count))
                #expect(try await reopened.activity(id: "old")?.pushToken == token)
                #expect(try await reopened.markTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start) != nil)
            }
        }
    }

    @Test
    func temporaryStoresDeleteTheirFile() async throws {
        let store = try await SQLitePushStore.temporary(logger: StoreHarness.quietLogger)
        #expect(FileManager.default.fileExists(atPath: store.path))
        _ = try await store.register(Fixture.registration("a"))
        await store.close()
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test
    func badPathsAreRefusedClearly() async throws {
        let memory = await caught { try await SQLitePushStore(path: ":memory:") }
        #expect(memory?.invalidField == "path")
        let missingDirectory = await caught {
            try await SQLitePushStore(path: "/nonexistent-livepush-dir-\(UUID().uuidString)/store.sqlite")
        }
        guard case .unavailable(let detail) = missingDirectory else {
            Issue.record("expected unavailable, got \(String(describing: missingDirectory))")
            return
        }
        #expect(detail.contains("nonexistent-livepush-dir"))
    }
}
