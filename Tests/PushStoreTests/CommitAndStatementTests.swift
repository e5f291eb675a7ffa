import Foundation
import LivePushTesting
import Testing

@testable import PushStore

/// How transactions commit (durable or deferred) and how PostgreSQL statements are prepared.
@Suite("SQL backends: commits and prepared statements")
struct CommitAndStatementTests {
    /// A deferred commit does not wait for the disk, is seen at once, and leaves the next transaction
    /// durable again. (SQLite runs every commit at `synchronous=NORMAL` and makes durable ones durable by
    /// syncing the log afterwards: see ``SQLiteWALSyncTests``.)
    @Test(arguments: StoreKind.available)
    func aDeferredCommitIsSeenAtOnceAndTheNextIsDurable(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let sql = try #require(store as? SQLPushStore)
            let setting =
                kind == .sqlite
                ? "PRAGMA synchronous" : "SELECT current_setting('synchronous_commit') AS synchronous"
            @Sendable func read(_ session: any SQLSession) async throws(PushStoreError) -> String {
                let row = try await session.first(setting)
                guard let row else { throw .database(detail: "no setting") }
                if let number = try? row.int("synchronous") { return String(number) }
                return try row.string("synchronous")
            }
            let during = try await sql.backend.transaction(.deferred) { session throws(PushStoreError) in
                try await session.execute("UPDATE schema_migrations SET version = version")
                return try await read(session)
            }
            let after = try await sql.backend.transaction { session throws(PushStoreError) in try await read(session) }
            // SQLite: 1 is NORMAL, for every commit. PostgreSQL: synchronous_commit.
            #expect(during == (kind == .sqlite ? "1" : "off"))
            #expect(after == (kind == .sqlite ? "1" : "on"))
            // A failed deferred transaction also leaves the connection durable.
            let failure = await caught {
                try await sql.backend.transaction(.deferred) { _ throws(PushStoreError) in
                    throw PushStoreError.conflict(detail: "rolled back")
                }
            }
            #expect(failure == .conflict(detail: "rolled back"))
            #expect(try await sql.backend.transaction { session throws(PushStoreError) in try await read(session) } == after)
            // What a deferred commit wrote is there for the next reader.
            try await sql.backend.transaction(.deferred) { session throws(PushStoreError) in
                try await session.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [.integer(9_999), .real(0)])
            }
            let seen = try await sql.backend.read { session throws(PushStoreError) in
                try await session.query("SELECT version FROM schema_migrations WHERE version = ?", [.integer(9_999)]).count
            }
            #expect(seen == 1)
        }
    }

    @Test
    func statementNamesAreBoundedAndRetiredAfterAnError() {
        let cache = PostgresStatementCache(capacity: 2)
        let first = cache.name(for: "a")
        #expect(first != nil)
        #expect(cache.name(for: "a") == first, "the same statement keeps its name")
        let second = cache.name(for: "b")
        #expect(second != nil && second != first)
        #expect(cache.name(for: "c") == nil, "beyond the capacity a statement runs unnamed")
        cache.retire("a")
        #expect(cache.name(for: "a") == nil, "a retired name counts against the capacity: it stays prepared on its connections")
        #expect(cache.count == 1)
        #expect(
            PostgresStatementCache.key(sql: "SELECT $1", types: [.int8]) != PostgresStatementCache.key(sql: "SELECT $1", types: [.text]))
        #expect(PostgresStatementCache.admits(sql: "\n  SELECT 1", bindCount: 0))
        #expect(PostgresStatementCache.admits(sql: "WITH x AS (SELECT 1) SELECT * FROM x", bindCount: 0))
        #expect(!PostgresStatementCache.admits(sql: "CREATE TABLE t (n BIGINT)", bindCount: 0))
        #expect(!PostgresStatementCache.admits(sql: "BEGIN", bindCount: 0))
        // A multi-row insert or a long IN list: a text per row count, each kept on every connection.
        #expect(PostgresStatementCache.admits(sql: "INSERT INTO t (a) VALUES ($1)", bindCount: 32))
        #expect(!PostgresStatementCache.admits(sql: "INSERT INTO t (a) VALUES ($1)", bindCount: 33))
        #expect(!PostgresStatementCache.admits(sql: "SELECT " + String(repeating: "1, ", count: 2_000) + "1", bindCount: 0))
    }

    /// On one connection: a statement run twice is prepared once; a statement whose preparation failed
    /// (its table did not exist yet) is prepared again once it can be, where PostgresNIO alone would keep
    /// failing it for the connection's life.
    @Test(.enabled(if: StoreKind.postgresURL != nil, Comment(rawValue: StoreKind.postgresSkipMessage)))
    func postgresPreparesOnceAndRecoversFromAFailedPreparation() async throws {
        try await withDatabase(.postgres) { harness in
            let url = try #require(StoreKind.postgresURL)
            try await withScopedResource {
                try await PostgresPushStore(url: url, schema: harness.location, maximumConnections: 1, logger: StoreHarness.quietLogger)
            } stop: { store in
                await store.close()
            } _: { (store: PostgresPushStore) in
                let lookup = "SELECT activity_id FROM activities WHERE activity_id = ?"
                for _ in 0..<3 {
                    _ = try await store.backend.read { session throws(PushStoreError) in try await session.query(lookup, [.text("x")]) }
                }
                let prepared = try await store.backend.read { session throws(PushStoreError) in
                    try await session.query(
                        "SELECT name FROM pg_prepared_statements WHERE statement = ?",
                        [.text(PostgresSession.numberPlaceholders(lookup))]
                    ) { row throws(PushStoreError) in try row.string("name") }
                }
                #expect(prepared.count == 1, "\(prepared)")
                #expect(prepared.first?.hasPrefix("livepush_") == true)

                let later = "SELECT n FROM later_table"
                let missing = await caught {
                    try await store.backend.read { session throws(PushStoreError) in try await session.query(later) }
                }
                #expect(missing != nil)
                try await store.backend.transaction { session throws(PushStoreError) in
                    try await session.execute("CREATE TABLE later_table (n BIGINT)")
                    try await session.execute("INSERT INTO later_table (n) VALUES (?)", [.integer(7)])
                }
                let rows = try await store.backend.read { session throws(PushStoreError) in
                    try await session.query(later, []) { row throws(PushStoreError) in try row.int("n") }
                }
                #expect(rows == [7])
            }
        }
    }
}
