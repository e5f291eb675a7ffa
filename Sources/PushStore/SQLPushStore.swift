import Foundation
import Logging
import Metrics

/// The store on SQL, SQLite or PostgreSQL: every operation is the same SQL run over a backend, which
/// differs only in connections, transactions and a few clauses (``SQLDialect``). The subclasses
/// (``SQLitePushStore``, ``PostgresPushStore``) open their backend; the operations are in the extensions,
/// one file per protocol of ``PushStore``. Not subclassable outside this module.
package class SQLPushStore: PushStore, @unchecked Sendable {
    // @unchecked: a class that is not final cannot be checked; its state is immutable and Sendable.
    let backend: any SQLBackend
    let logger: Logger
    let coalescedCounter: Counter
    /// Acceptances that arrive together share one transaction: on PostgreSQL its round trips, on SQLite
    /// the writer's time.
    let acceptanceGroups: AcceptanceGroups
    /// Each operation's duration timer.
    let timers: OperationTimers
    /// Registrations that arrive together share one transaction, as acceptances do.
    let registrationGroups: RegistrationGroups

    /// Takes an open backend and migrates its schema; closes the backend when that fails.
    init(backend: any SQLBackend, logger: Logger) async throws(PushStoreError) {
        do {
            try await Migrator.migrate(backend, logger: logger)
        } catch {
            await backend.close()
            throw error
        }
        self.backend = backend
        self.logger = logger
        self.coalescedCounter = Counter(
            label: "livepush_store_coalesced_total", dimensions: [("backend", backend.dialect.name)])
        self.acceptanceGroups = AcceptanceGroups(backend: backend.dialect.name)
        self.timers = OperationTimers(backend: backend.dialect.name)
        self.registrationGroups = RegistrationGroups(backend: backend.dialect.name)
    }

    /// Closes the database connections. Later calls throw `unavailable`.
    package func close() async {
        await backend.close()
    }

    var dialect: SQLDialect { backend.dialect }

    /// See ``ConsoleStore/location``; each kind of store says its own.
    package var location: String { dialect.name }

    /// Runs one store operation as a transaction (or, for a single-statement read, without one; for a
    /// single-statement write, `oneStatement`, as ``SQLBackend/write(_:_:)``), timing it and counting
    /// failures.
    func run<T: Sendable>(
        _ operation: String,
        readOnly: Bool = false,
        oneStatement: Bool = false,
        commit: SQLCommit = .durable,
        _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        let start = ContinuousClock.now
        do {
            let value =
                readOnly
                ? try await backend.read(body)
                : oneStatement ? try await backend.write(commit, body) : try await backend.transaction(commit, body)
            timers.timer(operation).record(duration: ContinuousClock.now - start)
            return value
        } catch {
            Counter(label: "livepush_store_errors_total", dimensions: [("backend", dialect.name), ("operation", operation)]).increment()
            switch error {
            case .invalidInput, .notFound, .conflict, .taken:
                logger.debug("store operation refused", metadata: ["operation": "\(operation)", "error": "\(error)"])
            case .unavailable, .database:
                logger.error("store operation failed", metadata: ["operation": "\(operation)", "error": "\(error)"])
            }
            throw error
        }
    }

    /// Inserts rows with multi-row `INSERT`s, as many rows per statement as the database allows.
    static func insertRows(
        _ session: any SQLSession, dialect: SQLDialect, table: String, columns: [String], rows: [[SQLValue]],
        suffix: String = ""
    ) async throws(PushStoreError) {
        try await insertRows(session, dialect: dialect, table: table, columns: columns, items: rows, suffix: suffix) { $0 }
    }

    /// Inserts one row per item, its values made only when its statement is (a group's 100,000 outbox rows
    /// are never all in memory as values at once). On SQLite the rows go in statements of the fixed row
    /// counts of ``RowShapes``, whose few texts stay prepared.
    static func insertRows<Item>(
        _ session: any SQLSession, dialect: SQLDialect, table: String, columns: [String], items: [Item],
        suffix: String = "", values: (Item) -> [SQLValue]
    ) async throws(PushStoreError) {
        guard !items.isEmpty else { return }
        let rowsPerStatement = max(1, min(1000, dialect.maxBindsPerStatement / columns.count))
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let prefix = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        var start = 0
        for count in RowShapes.pieces(items.count, largest: rowsPerStatement, fixed: session.fixedRowCounts) {
            let end = start + count
            let sql = prefix + Array(repeating: tuple, count: end - start).joined(separator: ", ") + suffix
            var binds = [SQLValue]()
            binds.reserveCapacity((end - start) * columns.count)
            for item in items[start..<end] { binds.append(contentsOf: values(item)) }
            try await session.execute(sql, binds)
            start = end
        }
    }

    /// `sql` with each `{IN}` replaced by `count` placeholders (`?, ?, ?`). Written on the string's UTF-8
    /// bytes: Foundation's `replacingOccurrences` goes through `NSString` on Linux, which cost 4 to 6% of the
    /// server's CPU under a per-activity update load (a profile of Benchmarks/intake.sh).
    static func expandingIn(_ sql: String, count: Int) -> String {
        let marker = Array("{IN}".utf8)
        var placeholders: [UInt8] = []
        placeholders.reserveCapacity(max(0, count * 3 - 2))
        for index in 0..<max(0, count) {
            if index > 0 { placeholders += [0x2C, 0x20] }  // ", "
            placeholders.append(0x3F)  // "?"
        }
        let bytes = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + placeholders.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == marker[0], index + marker.count <= bytes.count, bytes[index..<index + marker.count].elementsEqual(marker) {
                out += placeholders
                index += marker.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Runs `sql` once per chunk of `values`, with `{IN}` replaced by the chunk's placeholders, and
    /// concatenates the rows. `sql` has one `{IN}`, a list of values the rows are matched against: on
    /// SQLite each chunk's list is padded to a fixed size (``RowShapes/padded(_:limit:fixed:)``) with its
    /// last value repeated, which matches the same rows, so that the statement has a few texts that stay
    /// prepared.
    static func queryIn(
        _ session: any SQLSession, _ sql: String, leading: [SQLValue] = [], values: [SQLValue], chunk: Int = 500
    ) async throws(PushStoreError) -> [SQLRow] {
        var rows = [SQLRow]()
        var start = 0
        while start < values.count {
            let end = min(values.count, start + chunk)
            let places = RowShapes.padded(end - start, limit: chunk, fixed: session.fixedRowCounts)
            var binds = leading
            binds.reserveCapacity(leading.count + places)
            binds += values[start..<end]
            binds += repeatElement(values[end - 1], count: places - (end - start))
            rows += try await session.query(expandingIn(sql, count: places), binds)
            start = end
        }
        return rows
    }
}
