import Foundation

/// The statements a backend can run inside a transaction. SQL is written with `?` placeholders.
protocol SQLSession: Sendable {
    /// Runs one statement and turns each row into a value as it arrives, so a large result is never held
    /// as rows and values at once. The first error `transform` throws is thrown.
    func query<T: Sendable>(
        _ sql: String, _ binds: [SQLValue], transform: @escaping @Sendable (SQLRow) throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> [T]

    /// Whether multi-row statements and `IN` lists take the fixed row counts of ``RowShapes``: where the
    /// connection keeps them prepared and another statement costs no round trip (SQLite). Elsewhere
    /// (PostgreSQL, which does not name them) a chunk is one statement of its own row count.
    var fixedRowCounts: Bool { get }
}

extension SQLSession {
    /// Runs one statement and returns its rows (those of `RETURNING` for writes).
    func query(_ sql: String, _ binds: [SQLValue]) async throws(PushStoreError) -> [SQLRow] {
        try await query(sql, binds) { row throws(PushStoreError) in row }
    }

    func query(_ sql: String) async throws(PushStoreError) -> [SQLRow] {
        try await query(sql, [])
    }

    /// Runs a statement for its effect.
    func execute(_ sql: String, _ binds: [SQLValue] = []) async throws(PushStoreError) {
        _ = try await query(sql, binds)
    }

    /// The first row, if any.
    func first(_ sql: String, _ binds: [SQLValue] = []) async throws(PushStoreError) -> SQLRow? {
        try await query(sql, binds).first
    }
}

/// The differences between SQLite and PostgreSQL that the shared store code needs.
struct SQLDialect: Sendable {
    /// `SQLite` or `PostgreSQL`, for metrics and messages.
    var name: String
    /// Appended to a `SELECT` that picks rows to claim (`FOR UPDATE SKIP LOCKED` on PostgreSQL).
    var skipLockedClause: String
    /// Appended to a `SELECT` that reads rows about to be changed (`FOR UPDATE` on PostgreSQL).
    var forUpdateClause: String
    /// Run first in the migration transaction so that two processes do not migrate at once.
    var migrationLockStatement: String?
    /// Takes a transaction-scoped lock on the text bound to its one placeholder (nil where the
    /// database has one writer at a time anyway).
    var keyLockStatement: String?
    /// Takes a transaction-scoped lock on each text bound to its `{IN}` placeholders, in the order given
    /// (nil where the database has one writer at a time anyway).
    var keysLockStatement: String?
    /// Run before the migrations (after the lock), such as creating the PostgreSQL schema.
    var setupStatements: [String]
    /// The schema, one entry per version, each a list of statements.
    var migrations: [[String]]
    /// The most rows one multi-row `INSERT` may carry for a given column count.
    var maxBindsPerStatement: Int
    /// The function giving where a text first holds another, 1-based, 0 when not at all: called
    /// `f(haystack, needle)` (`instr` on SQLite, `strpos` on PostgreSQL).
    var positionFunction: String
}

/// How a transaction commits.
enum SQLCommit: Sendable {
    /// On disk before the commit returns: what the API has accepted (a 202 means stored).
    case durable
    /// Without waiting for the disk: the bookkeeping of work that is done again, with the same effect,
    /// when its record is lost (claims, and the outcomes of pushes whose ids and timestamps make a second
    /// sending harmless).
    case deferred
}

/// A database the store runs on: one transaction at a time per session, any number of sessions.
protocol SQLBackend: Sendable {
    var dialect: SQLDialect { get }

    /// Runs `body` in a transaction; commits when it returns, rolls back when it throws. A durable commit
    /// returns once the transaction is on disk. Otherwise (``SQLCommit/deferred``) it returns without
    /// waiting for the disk: a power loss or a crash of the database server may forget it (never a
    /// crash of this process), and the next durable commit makes it durable too (the log is written in
    /// order).
    func transaction<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T

    /// Runs `body`, which writes with a single statement, as a transaction of that one statement: where
    /// the database commits a statement outside a transaction on its own (PostgreSQL), without the BEGIN
    /// and COMMIT round trips; otherwise as ``transaction(_:_:)``. Commits as `commit` says.
    func write<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T

    /// Runs `body`, which only reads with a single statement, without an explicit transaction (saves
    /// the BEGIN and COMMIT round trips).
    func read<T: Sendable>(
        _ body: @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T

    /// Closes connections; later transactions throw `unavailable`.
    func close() async
}

extension SQLBackend {
    /// A backend without statements committed on their own runs a one-statement write as a transaction.
    func write<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        try await transaction(commit, body)
    }

    /// A transaction with a durable commit.
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        try await transaction(.durable, body)
    }
}
