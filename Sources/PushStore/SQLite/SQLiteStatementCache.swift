import CSQLite

/// One connection's prepared statements, keyed by their SQL text, the least recently used finalized
/// beyond `capacity`. Used on the connection's thread only (``SQLiteHandle``).
///
/// Only statements of the store's fixed shapes are kept (``admits(sql:bindCount:)``): a multi-row insert
/// or an `IN` list of a batch or a group page changes its text with its row count, so each of its texts
/// would take a place of its own, and large (the compiled program of a 1,000-row insert holds thousands of
/// instructions), while its one preparation is shared by its many rows anyway. Those are prepared for the
/// call and finalized after it, as every statement was before.
struct SQLiteStatementCache {
    /// Room for every text the store runs often: about 160 statements in its code, plus the short `IN`
    /// lists and multi-row inserts (up to 32 values) some of them expand to.
    static let capacity = 512
    /// A statement with more bound values than this is not kept (the store's fixed statements have fewer).
    static let maximumBinds = 32
    /// A statement longer than this is not kept.
    static let maximumLength = 4_096

    private struct Entry {
        var statement: OpaquePointer
        var lastUse: UInt64
    }

    private var entries: [String: Entry] = [:]
    private var uses: UInt64 = 0
    private let capacity: Int

    init(capacity: Int = SQLiteStatementCache.capacity) {
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }

    static func admits(sql: String, bindCount: Int) -> Bool {
        bindCount <= maximumBinds && sql.utf8.count <= maximumLength
    }

    /// The kept statement for `sql`, now the most recently used.
    mutating func statement(for sql: String) -> OpaquePointer? {
        uses &+= 1
        guard var entry = entries[sql] else { return nil }
        entry.lastUse = uses
        entries[sql] = entry
        return entry.statement
    }

    /// Keeps `statement` for `sql`; returns the statement it evicted, which the caller finalizes.
    mutating func keep(_ statement: OpaquePointer, for sql: String) -> OpaquePointer? {
        uses &+= 1
        var evicted: OpaquePointer?
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            evicted = oldest.value.statement
            entries[oldest.key] = nil
        }
        entries[sql] = Entry(statement: statement, lastUse: uses)
        return evicted
    }

    /// Forgets every statement; the caller finalizes them.
    mutating func removeAll() -> [OpaquePointer] {
        defer { entries = [:] }
        return entries.values.map(\.statement)
    }
}
