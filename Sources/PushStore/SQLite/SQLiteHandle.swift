import CSQLite
import Foundation
import Logging

/// One SQLite connection on a thread of its own, running the store's statements through SQLite's C API.
///
/// Each statement runs on that thread (``SQLiteThread``), inline when the caller already runs there (a
/// transaction's body, see ``SQLiteBackend``), else as one job that resumes the caller once, with every
/// row: it is taken from the connection's ``SQLiteStatementCache`` (prepared on first use, then reset and
/// rebound), stepped to its end with its rows converted, and reset with its bindings cleared.
/// A job runs whatever happens to the task that submitted it (a cancelled task still gets its statement
/// run to the end, or its error), so no statement is ever left half-stepped and no COMMIT or ROLLBACK is
/// skipped. The thread matters: a connection waiting for the write lock (busy_timeout) blocks only itself.
final class SQLiteHandle: SQLSession, @unchecked Sendable {
    // @unchecked: `database`, `statements`, `prepares` and `logHook` are used only by jobs on `thread`, one at a time.
    private let database: OpaquePointer
    private var statements: SQLiteStatementCache
    private var prepares = 0
    /// The writer's log hook's context, while the connection is open.
    private var logHook: LogHook?
    /// The connection's thread; a task that prefers it as its executor runs its statements inline.
    let thread: SQLiteThread
    let path: String
    let logger: Logger

    private init(database: OpaquePointer, thread: SQLiteThread, path: String, logger: Logger, cache: SQLiteStatementCache) {
        self.database = database
        self.thread = thread
        self.path = path
        self.logger = logger
        self.statements = cache
    }

    /// Opens (creating if needed) the database file on a new thread.
    static func open(
        path: String, logger: Logger, cacheCapacity: Int = SQLiteStatementCache.capacity,
        rowsCacheCapacity: Int = SQLiteStatementCache.rowsCapacity, rowsCacheBytes: Int = SQLiteStatementCache.rowsBytes
    ) async throws(PushStoreError) -> SQLiteHandle {
        let thread = SQLiteThread()
        let opened = await thread.run { () -> Result<Pointer, PushStoreError> in
            var database: OpaquePointer?
            // NOMUTEX: the connection is only ever used from its one thread.
            let code = sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
            guard code == SQLITE_OK, let database else {
                let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
                sqlite3_close_v2(database)
                return .failure(.unavailable(detail: "cannot open the SQLite database at '\(path)': \(message)"))
            }
            // UNIQUE and PRIMARY KEY failures tell themselves apart from other constraints (``map(code:message:)``).
            sqlite3_extended_result_codes(database, 1)
            // From the first statement on (setting WAL mode needs the lock too), another connection holding the
            // lock is waited for, up to 30 s, as the backend's `PRAGMA busy_timeout` says again.
            sqlite3_busy_timeout(database, 30_000)
            return .success(Pointer(raw: database))
        }
        switch opened {
        case .success(let database):
            return SQLiteHandle(
                database: database.raw, thread: thread, path: path, logger: logger,
                cache: SQLiteStatementCache(capacity: cacheCapacity, rowsCapacity: rowsCacheCapacity, rowsBytes: rowsCacheBytes))
        case .failure(let error):
            await thread.shutdown()
            throw error
        }
    }

    func query<T: Sendable>(
        _ sql: String, _ binds: [SQLValue], transform: @escaping @Sendable (SQLRow) throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> [T] {
        try await thread.run { self.execute(sql, binds, transform) }.get()
    }

    /// Row statements stay prepared (``SQLiteStatementCache/Tier/rows``), and run in-process.
    var fixedRowCounts: Bool { true }

    /// Finalizes the statements and closes the connection, then stops its thread.
    func close() async {
        let closed = await thread.run { () -> Result<Void, PushStoreError> in
            for statement in self.statements.removeAll() { sqlite3_finalize(statement) }
            let code = sqlite3_close_v2(self.database)
            guard code == SQLITE_OK else { return .failure(Self.map(code: code, message: String(cString: sqlite3_errstr(code)))) }
            return .success(())
        }
        if case .failure(let error) = closed {
            logger.error("closing the SQLite database failed", metadata: ["path": "\(path)", "error": "\(error)"])
        }
        await thread.shutdown()
    }

    /// What a test checks of the connection: how many statements it has prepared and keeps (of them, how
    /// many row statements, ``SQLiteStatementCache/Tier/rows``, and their bytes), how many are mid-step (stepped and not yet
    /// reset), and whether a transaction is open.
    struct Diagnostics: Sendable, Equatable {
        var prepared: Int
        var kept: Int
        var keptRows: Int
        var keptRowsBytes: Int
        var busy: Int
        var inTransaction: Bool
    }

    func diagnostics() async throws(PushStoreError) -> Diagnostics {
        try await thread.run { () -> Result<Diagnostics, PushStoreError> in
            var busy = 0
            var statement = sqlite3_next_stmt(self.database, nil)
            while let current = statement {
                if sqlite3_stmt_busy(current) != 0 { busy += 1 }
                statement = sqlite3_next_stmt(self.database, current)
            }
            return .success(
                Diagnostics(
                    prepared: self.prepares, kept: self.statements.count, keptRows: self.statements.count(.rows),
                    keptRowsBytes: self.statements.size(.rows), busy: busy,
                    inTransaction: sqlite3_get_autocommit(self.database) == 0))
        }.get()
    }

    /// Hands each commit's log length to `checkpointer` (`sqlite3_wal_hook`), in place of SQLite's automatic
    /// checkpoint; the hook checkpoints inline only past the checkpointer's backstop.
    func checkpoint(with checkpointer: SQLiteCheckpointer) async throws(PushStoreError) {
        let hook = LogHook(checkpointer: checkpointer, logger: logger)
        try await thread.run { () -> Result<Void, PushStoreError> in
            self.logHook = hook
            sqlite3_wal_hook(
                self.database,
                { context, database, name, pages in
                    guard let context else { return SQLITE_OK }
                    let hook = Unmanaged<LogHook>.fromOpaque(context).takeUnretainedValue()
                    if hook.checkpointer.committed(pages: Int(pages)), let database {
                        SQLiteHandle.checkpointPassive(database, logger: hook.logger)
                    }
                    return SQLITE_OK
                }, Unmanaged.passUnretained(hook).toOpaque())
            return .success(())
        }.get()
    }

    /// What the log hook's C callback is given: kept alive by the handle as long as its connection.
    final class LogHook: Sendable {
        let checkpointer: SQLiteCheckpointer
        let logger: Logger

        init(checkpointer: SQLiteCheckpointer, logger: Logger) {
            self.checkpointer = checkpointer
            self.logger = logger
        }
    }

    // MARK: On the connection's thread

    /// A `PASSIVE` checkpoint: copies the log pages no reader still needs into the database file, without
    /// waiting for any lock. Call it on the connection's thread.
    func checkpointPassive() {
        precondition(thread.isCurrent, "a checkpoint runs on its connection's thread")
        Self.checkpointPassive(database, logger: logger)
    }

    /// ``checkpointPassive()`` on `database`, also for the log hook, which runs on the writer's thread inside a
    /// commit and is given only the connection's pointer. Another connection's checkpoint running is no failure.
    private static func checkpointPassive(_ database: OpaquePointer, logger: Logger) {
        var logPages: Int32 = 0
        var copied: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &copied)
        if code == SQLITE_OK {
            logger.trace("SQLite log checkpointed", metadata: ["logPages": "\(logPages)", "copied": "\(copied)"])
        } else if code != SQLITE_BUSY {
            let error = map(code: sqlite3_extended_errcode(database), message: String(cString: sqlite3_errmsg(database)))
            logger.warning("checkpointing the SQLite log failed", metadata: ["error": "\(error)"])
        }
    }

    /// Prepares (or reuses), binds, steps and resets one statement.
    private func execute<T>(_ sql: String, _ binds: [SQLValue], _ transform: (SQLRow) throws(PushStoreError) -> T) -> Result<[T], PushStoreError> {
        let statement: OpaquePointer
        var keep = true
        if let cached = statements.statement(for: sql) {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let code = sqlite3_prepare_v2(database, sql, -1, &prepared, nil)
            prepares += 1
            guard code == SQLITE_OK else {
                sqlite3_finalize(prepared)
                return .failure(failure(code))
            }
            guard let prepared else { return .success([]) }  // only whitespace or a comment
            statement = prepared
            if let tier = SQLiteStatementCache.tier(sql: sql, bindCount: binds.count) {
                // Only a row statement's size counts (asking costs a walk of its program).
                let size = tier == .rows ? Int(sqlite3_stmt_status(statement, SQLiteHandle.memoryUsed, 0)) : 0
                let kept = statements.keep(statement, for: sql, in: tier, size: size)
                for evicted in kept.evicted { sqlite3_finalize(evicted) }
                keep = kept.kept
            } else {
                keep = false
            }
        }
        defer {
            // Back to its start with no values bound, ready for the next use; a failed step's error was taken.
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            if !keep { sqlite3_finalize(statement) }
        }
        for (offset, value) in binds.enumerated() {
            let code = bind(value, at: Int32(offset + 1), to: statement)
            guard code == SQLITE_OK else { return .failure(failure(code)) }
        }
        var values = [T]()
        var columns: SQLColumns?
        var transformError: PushStoreError?
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { return .failure(failure(code)) }
            // After a conversion failed, SQLite steps on (a write's effect is whole); the rest is not converted.
            guard transformError == nil else { continue }
            let names = columns ?? Self.columns(of: statement)
            columns = names
            do {
                values.append(try transform(SQLRow(columns: names, values: Self.values(of: statement, count: names.names.count))))
            } catch {
                transformError = error
            }
        }
        if let transformError { return .failure(transformError) }
        return .success(values)
    }

    /// SQLite copies texts and blobs (SQLITE_TRANSIENT): the values need not outlive the call.
    private func bind(_ value: SQLValue, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let number):
            return sqlite3_bind_int64(statement, index, number)
        case .real(let number):
            return sqlite3_bind_double(statement, index, number)
        case .text(let text):
            // withCString: a pointer even for "" (a null pointer would bind NULL).
            return text.withCString { sqlite3_bind_text(statement, index, $0, Int32(text.utf8.count), Self.transient) }
        case .blob(let data):
            guard !data.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return data.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
            }
        case .null:
            return sqlite3_bind_null(statement, index)
        }
    }

    /// SQLITE_STMTSTATUS_MEMUSED (a macro Swift does not import as such).
    private static let memoryUsed: Int32 = 99

    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    /// The connection's pointer, handed from its thread to the task that opened it.
    private struct Pointer: @unchecked Sendable {
        let raw: OpaquePointer
    }

    private static func columns(of statement: OpaquePointer) -> SQLColumns {
        SQLColumns(
            (0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
            })
    }

    private static func values(of statement: OpaquePointer, count: Int) -> [SQLValue] {
        (0..<Int32(count)).map { column -> SQLValue in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                let length = Int(sqlite3_column_bytes(statement, column))
                guard let text = sqlite3_column_text(statement, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
            case SQLITE_BLOB:
                let length = Int(sqlite3_column_bytes(statement, column))
                guard length > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob(Data()) }
                return .blob(Data(bytes: bytes, count: length))
            default:
                return .null
            }
        }
    }

    /// The connection's last error, for a call that returned `code`.
    private func failure(_ code: Int32) -> PushStoreError {
        let extended = sqlite3_extended_errcode(database)
        return Self.map(code: extended & 0xFF == code & 0xFF ? extended : code, message: String(cString: sqlite3_errmsg(database)))
    }

    /// SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY (macros Swift does not import).
    private static let constraintUnique: Int32 = 2067
    private static let constraintPrimaryKey: Int32 = 1555

    /// A result code (extended) and its message as a ``PushStoreError``.
    static func map(code: Int32, message: String) -> PushStoreError {
        let description = "SQLite: \(message) (\(String(cString: sqlite3_errstr(code))), code \(code))"
        switch code {
        case constraintUnique, constraintPrimaryKey:
            return .conflict(detail: "a stored record already has this key (\(message))")
        default:
            switch code & 0xFF {
            case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_FULL, SQLITE_READONLY, SQLITE_MISUSE:
                return .unavailable(detail: description)
            default:
                return .database(detail: description)
            }
        }
    }
}
