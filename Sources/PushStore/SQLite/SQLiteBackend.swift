import Foundation
import Logging
import Synchronization

/// Two SQLite connections, each with its own thread: one for transactions, which take turns through a
/// ``SerialGate``, and one (`query_only`) for single-statement reads, which in WAL mode run beside a
/// writing transaction instead of waiting for it. Writers use `BEGIN IMMEDIATE`, so another connection
/// to the same file waits instead of failing mid-transaction. The own threads matter: a connection
/// waiting for the write lock blocks only itself, never the thread the lock holder needs to finish.
/// Each connection prepares a statement once and reuses it (``SQLiteHandle``). A third connection copies
/// the write-ahead log into the file beside the writer (``SQLiteCheckpointer``), so no commit does it.
final class SQLiteBackend: SQLBackend {
    let dialect: SQLDialect
    private let writer: SQLiteHandle
    private let gate = SerialGate()
    private let reader: SQLiteHandle
    private let readGate = SerialGate()
    private let checkpointer: SQLiteCheckpointer
    private let closed = Mutex(false)
    let path: String

    static let sqliteDialect = SQLDialect(
        name: "sqlite",
        skipLockedClause: "",
        forUpdateClause: "",
        migrationLockStatement: nil,
        keyLockStatement: nil,
        keysLockStatement: nil,
        setupStatements: [],
        migrations: Schema.migrations(integer: "INTEGER", real: "REAL", blob: "BLOB"),
        maxBindsPerStatement: 30_000,
        positionFunction: "instr"
    )

    private init(writer: SQLiteHandle, reader: SQLiteHandle, checkpointer: SQLiteCheckpointer, path: String) {
        self.writer = writer
        self.reader = reader
        self.checkpointer = checkpointer
        self.path = path
        self.dialect = Self.sqliteDialect
    }

    /// Opens (creating if needed) the database file, in WAL mode with `synchronous=FULL` so that a
    /// committed transaction survives a crash or power loss.
    /// - Parameter checkpointThreshold: the log pages after which ``SQLiteCheckpointer`` copies the log.
    static func open(path: String, logger: Logger, checkpointThreshold: Int = 1_000) async throws(PushStoreError) -> SQLiteBackend {
        try SQLiteFileMode.secure(path: path, logger: logger)
        let writer = try await SQLiteHandle.open(path: path, logger: logger)
        do throws(PushStoreError) {
            let mode = try await writer.first("PRAGMA journal_mode = WAL")?.optionalString("journal_mode")
            guard mode?.lowercased() == "wal" else {
                throw .unavailable(
                    detail: "the SQLite database at '\(path)' cannot use WAL mode (journal mode is \(mode ?? "unknown"))")
            }
            try await writer.execute("PRAGMA synchronous = FULL")
            try await configure(writer)
        } catch {
            await writer.close()
            throw error
        }
        // Opened after the writer set WAL mode (a property of the file), so reads never block on writes.
        let reader: SQLiteHandle
        let checkpointing: SQLiteHandle
        do throws(PushStoreError) {
            reader = try await SQLiteHandle.open(path: path, logger: logger)
        } catch {
            await writer.close()
            throw error
        }
        do throws(PushStoreError) {
            checkpointing = try await SQLiteHandle.open(path: path, logger: logger)
        } catch {
            await reader.close()
            await writer.close()
            throw error
        }
        let checkpointer = SQLiteCheckpointer(handle: checkpointing, threshold: checkpointThreshold)
        let backend = SQLiteBackend(writer: writer, reader: reader, checkpointer: checkpointer, path: path)
        do throws(PushStoreError) {
            try await configure(reader)
            try await reader.execute("PRAGMA query_only = ON")
            try await configure(checkpointing)
            try await writer.checkpoint(with: checkpointer)
        } catch {
            await backend.close()
            throw error
        }
        return backend
    }

    /// Settings of each connection (not stored in the file).
    private static func configure(_ session: any SQLSession) async throws(PushStoreError) {
        // Another process holding the write lock is waited for (sleeping, not spinning) up to 30 s.
        try await session.execute("PRAGMA busy_timeout = 30000")
        // 16 MiB of page cache (the default is 2 MiB), for large group fan-outs.
        try await session.execute("PRAGMA cache_size = -16384")
    }

    /// Runs `body` holding `gate`, while the store is open.
    private func holding<T: Sendable>(
        _ gate: SerialGate, _ body: () async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        await gate.acquire()
        do throws(PushStoreError) {
            guard !closed.withLock({ $0 }) else { throw .unavailable(detail: "the SQLite store at '\(path)' is closed") }
            let value = try await body()
            await gate.release()
            return value
        } catch {
            await gate.release()
            throw error
        }
    }

    /// A deferred commit runs with `synchronous=NORMAL`: in WAL mode the commit is appended to the log
    /// without an fsync (3.6 ms against 0.02 ms per commit on the benchmark machine), and the next
    /// `FULL` commit syncs the log with it. The connection is back at `FULL` before the writer gate
    /// opens for the next transaction.
    func transaction<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        let session = writer
        // What puts the connection back as every other transaction expects it, once this one has ended.
        let restore = commit == .deferred ? ["PRAGMA synchronous = FULL"] : []
        // On the writer's thread: the body's statements run inline, with no thread switch between them.
        return try await withTaskExecutorPreference(writer.thread) { () async throws(PushStoreError) -> T in
            try await self.holding(self.gate) { () throws(PushStoreError) in
                if commit == .deferred { try await session.execute("PRAGMA synchronous = NORMAL") }
                do throws(PushStoreError) {
                    try await session.execute("BEGIN IMMEDIATE")
                } catch {
                    try await Self.end(restore, session)
                    throw error
                }
                do throws(PushStoreError) {
                    let value = try await body(session)
                    try await Self.end(["COMMIT"] + restore, session)
                    return value
                } catch {
                    do {
                        try await Self.end(["ROLLBACK"] + restore, session)
                    } catch let rollbackError {
                        writer.logger.error("SQLite rollback failed", metadata: ["error": "\(rollbackError)"])
                    }
                    throw error
                }
            }
        }
    }

    /// Runs COMMIT or ROLLBACK (and what restores the connection's settings after it) whatever happens to
    /// the calling task, in a task of its own: a statement of ours runs even for a cancelled task (see
    /// ``SQLiteHandle``), and this keeps it so for whatever the session awaits on the way. Each statement
    /// runs even when one before failed; the first failure is thrown.
    private static func end(_ statements: [String], _ session: SQLiteHandle) async throws(PushStoreError) {
        guard !statements.isEmpty else { return }
        // A task of its own (not cancelled with the caller's), on the connection's thread as the transaction.
        let ending = Task(executorPreference: session.thread) { () async -> PushStoreError? in
            var first: PushStoreError?
            for statement in statements {
                do throws(PushStoreError) {
                    try await session.execute(statement)
                } catch {
                    first = first ?? error
                }
            }
            return first
        }
        if let failure = await ending.value { throw failure }
    }

    /// On the read connection: a single statement sees the last committed state, even while a transaction
    /// on the other connection is writing.
    func read<T: Sendable>(
        _ body: @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        let session: any SQLSession = reader
        return try await withTaskExecutorPreference(reader.thread) { () async throws(PushStoreError) -> T in
            try await self.holding(self.readGate) { () throws(PushStoreError) in try await body(session) }
        }
    }

    func close() async {
        await gate.acquire()
        await readGate.acquire()
        let wasOpen = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen {
            // The writer last: closing the last connection checkpoints the WAL into the file.
            await checkpointer.close()
            await reader.close()
            await writer.close()
        }
        await readGate.release()
        await gate.release()
    }

    /// The two connections, for tests.
    var connections: (writer: SQLiteHandle, reader: SQLiteHandle) { (writer, reader) }

    /// The checkpoints run beside the writer (for tests).
    var checkpoints: SQLiteCheckpointer.Status { checkpointer.status }
}
