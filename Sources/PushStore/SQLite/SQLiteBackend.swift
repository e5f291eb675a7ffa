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
///
/// Commits do not sync: the writer runs with `synchronous=NORMAL`, and a durable transaction is answered
/// once ``SQLiteWALSyncer``, on a thread of its own, has synced the log after its COMMIT returned. The
/// writer's gate opens at COMMIT, so the next transaction's statements run while the disk syncs this one,
/// and one sync covers every transaction committed before it began.
final class SQLiteBackend: SQLBackend {
    let dialect: SQLDialect
    private let writer: SQLiteHandle
    private let gate = SerialGate()
    private let reader: SQLiteHandle
    private let readGate = SerialGate()
    private let checkpointer: SQLiteCheckpointer
    private let syncer: SQLiteWALSyncer
    /// The log file the syncer syncs, closed after it (nil when a test gives its own sync).
    private let walFile: SQLiteWALFile?
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

    private init(
        writer: SQLiteHandle, reader: SQLiteHandle, checkpointer: SQLiteCheckpointer, syncer: SQLiteWALSyncer,
        walFile: SQLiteWALFile?, path: String
    ) {
        self.writer = writer
        self.reader = reader
        self.checkpointer = checkpointer
        self.syncer = syncer
        self.walFile = walFile
        self.path = path
        self.dialect = Self.sqliteDialect
    }

    /// Opens (creating if needed) the database file, in WAL mode with `synchronous=NORMAL`; a durable
    /// transaction survives a crash or power loss once answered (see ``SQLiteWALSyncer``).
    /// - Parameters:
    ///   - checkpointThreshold: the log pages after which ``SQLiteCheckpointer`` copies the log.
    ///   - syncLog: what syncs the log, for tests; by default `fdatasync` of the `-wal` file (``SQLiteWALFile``).
    static func open(
        path: String, logger: Logger, checkpointThreshold: Int = 1_000, syncLog: SQLiteWALSyncer.Operation? = nil
    ) async throws(PushStoreError) -> SQLiteBackend {
        try SQLiteFileMode.secure(path: path, logger: logger)
        let writer = try await SQLiteHandle.open(path: path, logger: logger)
        let walFile: SQLiteWALFile?
        let operation: SQLiteWALSyncer.Operation
        do throws(PushStoreError) {
            let mode = try await writer.first("PRAGMA journal_mode = WAL")?.optionalString("journal_mode")
            guard mode?.lowercased() == "wal" else {
                throw .unavailable(
                    detail: "the SQLite database at '\(path)' cannot use WAL mode (journal mode is \(mode ?? "unknown"))")
            }
            // Commits write the log without syncing it; ``SQLiteWALSyncer`` syncs it for durable ones.
            try await writer.execute("PRAGMA synchronous = NORMAL")
            try await configure(writer)
            // A first transaction creates the log file (SQLite opens it at a connection's first one).
            try await writer.execute("BEGIN IMMEDIATE")
            try await writer.execute("COMMIT")
            if let syncLog {
                walFile = nil
                operation = syncLog
            } else {
                let file = try SQLiteWALFile(databasePath: path)
                walFile = file
                operation = { file.sync() }
            }
        } catch {
            await writer.close()
            throw error
        }
        let syncer = SQLiteWALSyncer(path: path, logger: logger, operation: operation)
        // Opened after the writer set WAL mode (a property of the file), so reads never block on writes.
        let reader: SQLiteHandle
        let checkpointing: SQLiteHandle
        var opened: [SQLiteHandle] = []
        do throws(PushStoreError) {
            reader = try await SQLiteHandle.open(path: path, logger: logger)
            opened.append(reader)
            checkpointing = try await SQLiteHandle.open(path: path, logger: logger)
        } catch {
            await syncer.close()
            walFile?.close()
            for handle in opened { await handle.close() }
            await writer.close()
            throw error
        }
        let checkpointer = SQLiteCheckpointer(handle: checkpointing, threshold: checkpointThreshold)
        let backend = SQLiteBackend(
            writer: writer, reader: reader, checkpointer: checkpointer, syncer: syncer, walFile: walFile, path: path)
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

    /// Commits without syncing (`synchronous=NORMAL`), opens the gate for the next transaction, tells the
    /// caller it committed (``SQLCommitNotice``), and then, for a durable transaction, returns once
    /// ``SQLiteWALSyncer`` has synced the log after the COMMIT. A deferred one returns at once: the next
    /// sync makes it durable with the transactions after it (the log is written in order).
    func transaction<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        let session = writer
        let syncer = self.syncer
        // On the writer's thread: the body's statements run inline, with no thread switch between them.
        let (value, ticket) = try await withTaskExecutorPreference(writer.thread) {
            () async throws(PushStoreError) -> (T, SQLiteWALSyncer.Ticket?) in
            try await self.holding(self.gate) { () throws(PushStoreError) in
                // After a failed sync nothing more is written (see ``SQLiteWALSyncer``).
                if let failure = syncer.failure { throw failure }
                try await session.execute("BEGIN IMMEDIATE")
                do throws(PushStoreError) {
                    let value = try await body(session)
                    try await Self.end(["COMMIT"], session)
                    // Registered before the gate opens, so that ``close()`` finds it waiting.
                    return (value, commit == .durable ? syncer.committed() : nil)
                } catch {
                    do {
                        try await Self.end(["ROLLBACK"], session)
                    } catch let rollbackError {
                        writer.logger.error("SQLite rollback failed", metadata: ["error": "\(rollbackError)"])
                    }
                    throw error
                }
            }
        }
        SQLCommitNotice.current?()
        try await ticket?.wait()
        return value
    }

    /// Runs COMMIT or ROLLBACK whatever happens to the calling task, in a task of its own: a statement of
    /// ours runs even for a cancelled task (see ``SQLiteHandle``), and this keeps it so for whatever the
    /// session awaits on the way. Each statement runs even when one before failed; the first failure is
    /// thrown.
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
            // Durable transactions that committed before the gate was taken are answered after a last
            // sync; none commits meanwhile (the gate is held). Then the log's descriptor, before the
            // connections: the last connection's close may delete the log.
            await syncer.close()
            walFile?.close()
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

    /// The log's syncs completed so far (for tests).
    var logSyncs: Int { syncer.completed }

    /// The checkpoints run beside the writer (for tests).
    var checkpoints: SQLiteCheckpointer.Status { checkpointer.status }
}
