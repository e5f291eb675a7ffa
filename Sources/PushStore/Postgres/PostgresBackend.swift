import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Two pools of PostgreSQL connections (PostgresNIO's `PostgresClient`, each run by a task this backend
/// owns): one for durable transactions and reads, and a smaller one whose connections have
/// `synchronous_commit` off, for deferred commits (so a deferred transaction costs no `SET` of its own).
/// Transactions that PostgreSQL aborts for a deadlock or a serialization failure are run again.
final class PostgresBackend: SQLBackend {
    let dialect: SQLDialect
    private let client: PostgresClient
    private let deferredClient: PostgresClient
    private let runners: [Task<Void, Never>]
    private let logger: Logger
    private let closed = Mutex(false)
    private let statements = PostgresStatementCache()
    let redactedURL: String

    static let postgresDialect = SQLDialect(
        name: "postgres",
        skipLockedClause: " FOR UPDATE SKIP LOCKED",
        forUpdateClause: " FOR UPDATE",
        // Two processes starting at once must not both create the tables.
        migrationLockStatement: migrationLock(schema: "public"),
        keyLockStatement: "SELECT COUNT(*) AS locked FROM (SELECT pg_advisory_xact_lock(7361002, hashtext(?))) AS lock",
        // The array's elements in order (a function scan): texts sorted by the caller are locked in that order.
        keysLockStatement: """
            SELECT COUNT(*) AS locked FROM
                (SELECT pg_advisory_xact_lock(7361002, hashtext(key)) FROM unnest(ARRAY[{IN}]::text[]) AS keys (key)) AS lock
            """,
        setupStatements: [],
        migrations: Schema.migrations(integer: "BIGINT", real: "DOUBLE PRECISION", blob: "BYTEA"),
        maxBindsPerStatement: 30_000,
        positionFunction: "strpos"
    )

    /// A transaction-scoped advisory lock per schema, so that migrations of different schemas do not wait
    /// for each other.
    static func migrationLock(schema: String) -> String {
        "SELECT COUNT(*) AS locked FROM (SELECT pg_advisory_xact_lock(7361001, hashtext('\(schema)'))) AS lock"
    }

    init(configuration: PostgresClient.Configuration, dialect: SQLDialect, redactedURL: String, logger: Logger) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        var deferred = configuration
        deferred.options.additionalStartupParameters.append(("synchronous_commit", "off"))
        deferred.options.maximumConnections = max(1, configuration.options.maximumConnections / 2)
        let deferredClient = PostgresClient(configuration: deferred, backgroundLogger: logger)
        self.client = client
        self.deferredClient = deferredClient
        self.runners = [Task { await client.run() }, Task { await deferredClient.run() }]
        self.logger = logger
        self.redactedURL = redactedURL
        self.dialect = dialect
    }

    /// A deferred commit runs on a connection with `synchronous_commit` off: PostgreSQL answers the commit
    /// before its log record is flushed, and flushes it with the next.
    func transaction<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        try await retrying { () async throws(PushStoreError) in try await self.once(commit, body) }
    }

    /// One statement as its own transaction (PostgreSQL commits each statement outside `BEGIN` on its
    /// own): one round trip where `BEGIN`, the statement and `COMMIT` are three.
    func write<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        try await retrying { () async throws(PushStoreError) in
            try await self.withSession(commit) { session in try await body(session) }
        }
    }

    /// Runs `attempt` again (up to 4 times in all) while it fails in a way ``isRetryable(_:)`` accepts.
    private func retrying<T: Sendable>(_ attempt: () async throws(PushStoreError) -> T) async throws(PushStoreError) -> T {
        var number = 1
        while true {
            do {
                return try await attempt()
            } catch .database(let detail) where number < 4 && Self.isRetryable(detail) {
                logger.debug("PostgreSQL transaction retried", metadata: ["attempt": "\(number)", "error": "\(detail)"])
                number += 1
            }
        }
    }

    private func once<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        let logger = self.logger
        return try await withSession(commit) { session in
            try await session.execute("BEGIN")
            do {
                let value = try await body(session)
                try await session.execute("COMMIT")
                return value
            } catch {
                do {
                    try await session.execute("ROLLBACK")
                } catch let rollbackError {
                    logger.error("PostgreSQL rollback failed", metadata: ["error": "\(rollbackError)"])
                }
                throw error
            }
        }
    }

    func read<T: Sendable>(
        _ body: @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        try await withSession(.durable) { session in try await body(session) }
    }

    /// Runs `body` on a connection of the pool for `commit` while the store is open, with errors mapped
    /// to ``PushStoreError``.
    private func withSession<T: Sendable>(
        _ commit: SQLCommit, _ body: (PostgresSession) async throws -> T
    ) async throws(PushStoreError) -> T {
        guard !closed.withLock({ $0 }) else { throw .unavailable(detail: "the PostgreSQL store at \(redactedURL) is closed") }
        let logger = self.logger
        let statements = self.statements
        do {
            let pool = commit == .durable ? client : deferredClient
            return try await pool.withConnection { connection in
                try await body(PostgresSession(connection: connection, logger: logger, statements: statements))
            }
        } catch let error as PushStoreError {
            throw error
        } catch {
            throw PostgresSession.map(error, url: redactedURL)
        }
    }

    /// SQLSTATE 40001 (serialization failure) and 40P01 (deadlock) mean "run it again"; so does 0A000
    /// for a prepared statement whose plan a migration by another instance made stale (the statement is
    /// prepared again under a new name: ``PostgresStatementCache``).
    static func isRetryable(_ detail: String) -> Bool {
        detail.contains("SQLSTATE 40001") || detail.contains("SQLSTATE 40P01")
            || (detail.contains("SQLSTATE 0A000") && detail.contains("cached plan"))
    }

    func close() async {
        let wasOpen = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard wasOpen else { return }
        for runner in runners { runner.cancel() }
        for runner in runners { await runner.value }
    }
}

/// Statements on one leased connection: `?` placeholders become `$1`, `$2`...; data statements run
/// prepared (``PostgresStatementCache``), others unnamed; errors are mapped to ``PushStoreError``
/// without ever including bound values.
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger
    let statements: PostgresStatementCache

    /// Each statement is a round trip, and a multi-row one runs unnamed anyway.
    var fixedRowCounts: Bool { false }

    func query<T: Sendable>(
        _ sql: String, _ binds: [SQLValue], transform: @escaping @Sendable (SQLRow) throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> [T] {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        // The types and the key only for a statement that may be named (not for a multi-row insert's thousands of values).
        let admitted = PostgresStatementCache.admits(sql: sql, bindCount: binds.count)
        let numbered = admitted ? statements.numbered(sql) : Self.numberPlaceholders(sql)
        let types = admitted ? binds.map(Self.type) : nil
        let key = types.map { PostgresStatementCache.key(sql: numbered, types: $0) }
        do {
            if let types, let key, let name = statements.name(for: key) {
                do {
                    let text = NamedStatement.Text(name: name, sql: numbered, types: types)
                    return try await NamedStatement.$current.withValue(text) {
                        try await Self.collect(try await connection.execute(NamedStatement(bindings: bindings), logger: logger), transform)
                    }
                } catch {
                    statements.retire(key)
                    throw error
                }
            }
            let query = PostgresQuery(unsafeSQL: numbered, binds: bindings)
            return try await Self.collect(try await connection.query(query, logger: logger), transform)
        } catch let error as PushStoreError {
            throw error
        } catch {
            throw Self.map(error, url: nil)
        }
    }

    /// The type a bound value is declared with (NULL: left to PostgreSQL).
    private static func type(_ value: SQLValue) -> PostgresDataType {
        switch value {
        case .integer: .int8
        case .real: .float8
        case .text: .text
        case .blob: .bytea
        case .null: .null
        }
    }

    /// Each row turned into a value as it arrives.
    private static func collect<Rows: AsyncSequence, T>(
        _ sequence: Rows, _ transform: @Sendable (SQLRow) throws(PushStoreError) -> T
    ) async throws -> [T] where Rows.Element == PostgresRow {
        var rows = [T]()
        var columns: SQLColumns?
        for try await row in sequence {
            let names = columns ?? SQLColumns(row.map(\.columnName))
            columns = names
            var values = [SQLValue]()
            values.reserveCapacity(names.names.count)
            for cell in row { values.append(try value(cell)) }
            rows.append(try transform(SQLRow(columns: names, values: values)))
        }
        return rows
    }

    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
        case .float8, .float4: return .real(try cell.decode(Double.self))
        case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
        case .bytea: return .blob(Data(try cell.decode(ByteBuffer.self).readableBytesView))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        default:
            throw PushStoreError.database(
                detail: "column '\(cell.columnName)' has PostgreSQL type \(cell.dataType), which the store does not read")
        }
    }

    /// Replaces each `?` with `$n`. The store's SQL has no `?` inside string literals.
    /// Works on the UTF-8 bytes (`?` is one byte and never part of another character's).
    static func numberPlaceholders(_ sql: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(sql.utf8.count + 64)
        var number = 0
        for byte in sql.utf8 {
            guard byte == UInt8(ascii: "?") else {
                out.append(byte)
                continue
            }
            number += 1
            out.append(UInt8(ascii: "$"))
            out += String(number).utf8
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func map(_ error: any Error, url: String?) -> PushStoreError {
        let place = url.map { " at \($0)" } ?? ""
        if let error = error as? PSQLError {
            if let info = error.serverInfo {
                let state = info[.sqlState] ?? "?"
                let message = info[.message] ?? "no message"
                if state == "23505" {
                    return .conflict(detail: "a stored record already has this key (\(message))")
                }
                if ["08", "28", "3D", "53", "57"].contains(where: { state.hasPrefix($0) }) {
                    return .unavailable(detail: "PostgreSQL\(place): \(message) (SQLSTATE \(state))")
                }
                return .database(detail: "PostgreSQL: \(message) (SQLSTATE \(state))")
            }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .sslUnsupported,
                .failedToAddSSLHandler, .uncleanShutdown, .unsupportedAuthMechanism, .authMechanismRequiresPassword,
                .saslError:
                let underlying = error.underlying.map { ": \($0)" } ?? ""
                return .unavailable(detail: "PostgreSQL\(place): \(error.code)\(underlying)")
            default:
                return .database(detail: "PostgreSQL: \(error.code)")
            }
        }
        if error is CancellationError { return .unavailable(detail: "PostgreSQL\(place): cancelled") }
        return .unavailable(detail: "PostgreSQL\(place): \(error)")
    }
}
