import PostgresNIO
import Synchronization

/// Which of the store's statements run as named prepared statements, so PostgreSQL parses and plans each
/// once per connection instead of once per call (the store's SQL is a few hundred distinct texts, most
/// of them run for every page of a group send).
///
/// A statement is known by its SQL and the types of its bound values (a NULL leaves a parameter's type to
/// PostgreSQL, so the same SQL with a NULL and with a text is two statements). Each gets a process-wide
/// name; PostgresNIO prepares it on a connection the first time that connection runs it and keeps it for
/// the connection's life, and PostgreSQL keeps its parse tree in that connection's memory.
///
/// Only statements of the store's fixed shapes are named (``admits(sql:bindCount:)``): a multi-row insert
/// or an `IN` list changes its text with its row count, and each of its many texts would be kept, large,
/// on every connection. Up to `capacity` statements are named; any beyond run unnamed as before.
///
/// PostgresNIO remembers a failed preparation for the connection's life, and PostgreSQL refuses a cached
/// plan whose result type a migration changed: after any error the statement is given a new name, so the
/// next call prepares it again instead of failing the same way.
final class PostgresStatementCache: Sendable {
    static let capacity = 1_000
    /// A statement with more bound values than this runs unnamed (the store's fixed statements have fewer).
    static let maximumBinds = 32
    /// A statement longer than this runs unnamed.
    static let maximumLength = 4_096

    private struct Entries {
        var names: [String: String] = [:]
        var issued = 0
        /// The store's SQL with `?` placeholders, numbered (`$1`, `$2`...): made once per text.
        var numbered: [String: String] = [:]
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

    /// `sql` with its placeholders numbered (``PostgresSession/numberPlaceholders(_:)``), kept for the
    /// statements ``admits(sql:bindCount:)`` names (at most `capacity` texts; any beyond are numbered each
    /// time).
    func numbered(_ sql: String) -> String {
        if let known = entries.withLock({ $0.numbered[sql] }) { return known }
        let numbered = PostgresSession.numberPlaceholders(sql)
        entries.withLock { entries in
            if entries.numbered.count < capacity { entries.numbered[sql] = numbered }
        }
        return numbered
    }

    /// Forgets the name of `key` after an error, so its next run prepares it anew under another name.
    func retire(_ key: String) {
        _ = entries.withLock { $0.names.removeValue(forKey: key) }
    }

    /// How many statements have names now.
    var count: Int { entries.withLock { $0.names.count } }

    /// Whether a statement is worth naming: one that reads or writes rows (what PostgreSQL plans, as
    /// against schema and session statements, which run once or are cheap to parse), of a fixed shape.
    static func admits(sql: String, bindCount: Int) -> Bool {
        guard bindCount <= maximumBinds, sql.utf8.count <= maximumLength else { return false }
        let start = sql.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }.prefix(6)
        // ASCII letters to upper case; anything else stays as it is.
        let word = start.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
        return verbs.contains { $0.elementsEqual(word) } || word.starts(with: withVerb)
    }

    private static let verbs = ["SELECT", "INSERT", "UPDATE", "DELETE"].map { Array($0.utf8) }
    private static let withVerb = Array("WITH ".utf8)

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
