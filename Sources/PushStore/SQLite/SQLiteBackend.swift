import Foundation
import Logging
import SQLiteNIO
import Synchronization

/// Two SQLite connections, each with its own thread: one for transactions, which take turns through a
/// ``SerialGate``, and one (`query_only`) for single-statement reads, which in WAL mode run beside a
/// writing transaction instead of waiting for it. Writers use `BEGIN IMMEDIATE`, so another connection
/// to the same file waits instead of failing mid-transaction. The own threads matter: a connection
/// waiting for the write lock blocks only itself, never the thread the lock holder needs to finish.
final class SQLiteBackend: SQLBackend {
    let dialect: SQLDialect
    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool
    private let gate = SerialGate()
    private let reader: SQLiteConnection
    private let readerThreadPool: NIOThreadPool
    private let readGate = SerialGate()
    private let closed = Mutex(false)
    let path: String

    static let sqliteDialect = SQLDialect(
        name: "sqlite",
        skipLockedClause: "",
        forUpdateClause: "",
        migrationLockStatement: nil,
        keyLockStatement: nil,
        setupStatements: [],
        migrations: Schema.migrations(integer: "INTEGER", real: "REAL", blob: "BLOB"),
        maxBindsPerStatement: 30_000,
        positionFunction: "instr"
    )

    private init(
        connection: SQLiteConnection, threadPool: NIOThreadPool, reader: SQLiteConnection, readerThreadPool: NIOThreadPool,
        path: String
    ) {
        self.connection = connection
        self.threadPool = threadPool
        self.reader = reader
        self.readerThreadPool = readerThreadPool
        self.path = path
        self.dialect = Self.sqliteDialect
    }

    /// Opens (creating if needed) the database file, in WAL mode with `synchronous=FULL` so that a
    /// committed transaction survives a crash or power loss.
    static func open(path: String, logger: Logger) async throws(PushStoreError) -> SQLiteBackend {
        try SQLiteFileMode.secure(path: path, logger: logger)
        let (connection, threadPool) = try await openConnection(path: path, logger: logger)
        do throws(PushStoreError) {
            let session = SQLiteSession(connection: connection)
            let mode = try await session.first("PRAGMA journal_mode = WAL")?.optionalString("journal_mode")
            guard mode?.lowercased() == "wal" else {
                throw .unavailable(
                    detail: "the SQLite database at '\(path)' cannot use WAL mode (journal mode is \(mode ?? "unknown"))")
            }
            try await session.execute("PRAGMA synchronous = FULL")
            try await configure(session)
        } catch {
            await shutDown(connection, threadPool)
            throw error
        }
        // Opened after the writer set WAL mode (a property of the file), so reads never block on writes.
        let reader: SQLiteConnection
        let readerThreadPool: NIOThreadPool
        do throws(PushStoreError) {
            (reader, readerThreadPool) = try await openConnection(path: path, logger: logger)
        } catch {
            await shutDown(connection, threadPool)
            throw error
        }
        let backend = SQLiteBackend(
            connection: connection, threadPool: threadPool, reader: reader, readerThreadPool: readerThreadPool, path: path)
        do throws(PushStoreError) {
            let session = SQLiteSession(connection: reader)
            try await configure(session)
            try await session.execute("PRAGMA query_only = ON")
        } catch {
            await backend.close()
            throw error
        }
        return backend
    }

    /// One connection on its own thread.
    private static func openConnection(path: String, logger: Logger) async throws(PushStoreError)
        -> (SQLiteConnection, NIOThreadPool)
    {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        do {
            let connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, logger: logger,
                on: MultiThreadedEventLoopGroup.singleton.any())
            return (connection, threadPool)
        } catch {
            try? await threadPool.shutdownGracefully()
            throw .unavailable(detail: "cannot open the SQLite database at '\(path)': \(Self.describe(error))")
        }
    }

    /// Closes a connection and stops its thread, logging what fails.
    private static func shutDown(_ connection: SQLiteConnection, _ threadPool: NIOThreadPool) async {
        do {
            try await connection.close()
        } catch {
            connection.logger.error("closing the SQLite database failed", metadata: ["error": "\(error)"])
        }
        do {
            try await threadPool.shutdownGracefully()
        } catch {
            connection.logger.error("stopping the SQLite thread failed", metadata: ["error": "\(error)"])
        }
    }

    /// Settings of each connection (not stored in the file).
    private static func configure(_ session: SQLiteSession) async throws(PushStoreError) {
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
        let session = SQLiteSession(connection: connection)
        // What puts the connection back as every other transaction expects it, once this one has ended.
        let restore = commit == .deferred ? ["PRAGMA synchronous = FULL"] : []
        return try await holding(gate) { () throws(PushStoreError) in
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
                    connection.logger.error("SQLite rollback failed", metadata: ["error": "\(rollbackError)"])
                }
                throw error
            }
        }
    }

    /// Runs COMMIT or ROLLBACK (and what restores the connection's settings after it) whatever happens to
    /// the calling task: the connection's thread pool skips work submitted from a cancelled task (a
    /// request whose client went away, a sweep stopped at shutdown), which would leave the connection
    /// inside this transaction for every later caller. Each statement runs even when one before failed;
    /// the first failure is thrown.
    private static func end(_ statements: [String], _ session: SQLiteSession) async throws(PushStoreError) {
        guard !statements.isEmpty else { return }
        let ending = Task.detached { () async -> PushStoreError? in
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
        let session = SQLiteSession(connection: reader)
        return try await holding(readGate) { () throws(PushStoreError) in try await body(session) }
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
            await Self.shutDown(reader, readerThreadPool)
            await Self.shutDown(connection, threadPool)
        }
        await readGate.release()
        await gate.release()
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? SQLiteError { return error.description }
        return "\(error)"
    }
}

/// Statements on the SQLite connection, with errors mapped to ``PushStoreError``.
struct SQLiteSession: SQLSession {
    let connection: SQLiteConnection

    func query<T: Sendable>(
        _ sql: String, _ binds: [SQLValue], transform: @escaping @Sendable (SQLRow) throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> [T] {
        let data = binds.map { value -> SQLiteData in
            switch value {
            case .integer(let number): return .integer(SQLiteInt64(number))
            case .real(let number): return .float(number)
            case .text(let text): return .text(text)
            case .blob(let bytes): return .blob(ByteBuffer(bytes: bytes))
            case .null: return .null
            }
        }
        // Rows are converted as SQLite steps through them (on the connection's thread), so a large result
        // (a group of 100,000) is never held twice.
        let collector = RowCollector(transform: transform)
        do {
            try await connection.query(sql, data) { row in collector.add(row) }
        } catch let error as SQLiteError {
            throw Self.map(error)
        } catch {
            throw .unavailable(detail: "SQLite: \(error)")
        }
        if let error = collector.error { throw error }
        return collector.values
    }

    /// Filled on the connection's thread during one query, read after it returned.
    private final class RowCollector<T>: @unchecked Sendable {
        private(set) var values: [T] = []
        private(set) var error: PushStoreError?
        private var columns: SQLColumns?
        private let transform: (SQLRow) throws(PushStoreError) -> T

        init(transform: @escaping (SQLRow) throws(PushStoreError) -> T) {
            self.transform = transform
        }

        func add(_ row: SQLiteRow) {
            guard error == nil else { return }  // SQLite steps on; the rest is not converted
            let fields = row.columns
            let columns = self.columns ?? SQLColumns(fields.map(\.name))
            self.columns = columns
            let sqlRow = SQLRow(
                columns: columns,
                values: fields.map { field in
                    switch field.data {
                    case .integer(let number): return .integer(Int64(number))
                    case .float(let number): return .real(number)
                    case .text(let text): return .text(text)
                    case .blob(let buffer): return .blob(Data(buffer.readableBytesView))
                    case .null: return .null
                    }
                })
            do {
                values.append(try transform(sqlRow))
            } catch {
                self.error = error
            }
        }
    }

    static func map(_ error: SQLiteError) -> PushStoreError {
        switch error.reason {
        case .constraintUniqueFailed, .constraintPrimaryKeyFailed:
            return .conflict(detail: "a stored record already has this key (\(error.message))")
        case .busy, .busyTimeout, .locked, .cantOpen, .ioError, .full, .readOnly, .misuse:
            return .unavailable(detail: "SQLite: \(error.description)")
        default:
            return .database(detail: "SQLite: \(error.description)")
        }
    }
}
