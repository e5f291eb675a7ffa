import PostgresNIO
import Synchronization

/// Which of the store's statements run as named prepared statements, so PostgreSQL parses and plans each
/// once per connection instead of once per call (the store's SQL is a few hundred distinct texts, most
/// of them run for every page of a group send).
///
/// A statement is known by its SQL and the types of its bound values (a NULL leaves a parameter's type to
/// PostgreSQL, so the same SQL with a NULL and with a text is two statements). Each gets a process-wide
/// name; PostgresNIO prepares it on a connection the first time that connection runs it and keeps it for
/// the connection's life. Up to `capacity` statements are named; any beyond run unnamed as before (a
/// multi-row insert's text changes with its row count, so the set is bounded, but not by much).
///
/// PostgresNIO remembers a failed preparation for the connection's life, and PostgreSQL refuses a cached
/// plan whose result type a migration changed: after any error the statement is given a new name, so the
/// next call prepares it again instead of failing the same way.
final class PostgresStatementCache: Sendable {
    static let capacity = 2_000

    private struct Entries {
        var names: [String: String] = [:]
        var issued = 0
    }

    private let entries = Mutex(Entries())
    private let capacity: Int

    init(capacity: Int = PostgresStatementCache.capacity) {
        self.capacity = capacity
    }

    /// The name to run `key` under, or nil when the cache is full and the statement runs unnamed.
    func name(for key: String) -> String? {
        entries.withLock { entries in
            if let name = entries.names[key] { return name }
            guard entries.issued < capacity else { return nil }
            entries.issued += 1
            let name = "livepush_\(entries.issued)"
            entries.names[key] = name
            return name
        }
    }

    /// Forgets the name of `key` after an error, so its next run prepares it anew under another name.
    func retire(_ key: String) {
        _ = entries.withLock { $0.names.removeValue(forKey: key) }
    }

    /// How many statements have names now.
    var count: Int { entries.withLock { $0.names.count } }

    /// The key of a statement: its SQL and its parameters' types.
    static func key(sql: String, types: [PostgresDataType]) -> String {
        var key = sql
        key.reserveCapacity(sql.utf8.count + types.count * 5)
        key.append("\u{0}")
        for type in types {
            key.append(String(type.rawValue))
            key.append(",")
        }
        return key
    }
}

/// One run of a named statement. PostgresNIO takes a prepared statement's name, SQL and parameter types
/// from its type (`static` requirements, read when `execute` is called, in the calling task), while the
/// store's SQL is text built at run time: the values are bound to the task for the call.
struct NamedStatement: PostgresPreparedStatement {
    struct Text: Sendable {
        var name: String
        var sql: String
        var types: [PostgresDataType]
    }

    @TaskLocal static var current: Text?

    typealias Row = PostgresRow

    static var name: String { current?.name ?? "" }
    static var sql: String { current?.sql ?? "" }
    static var bindingDataTypes: [PostgresDataType] { current?.types ?? [] }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
