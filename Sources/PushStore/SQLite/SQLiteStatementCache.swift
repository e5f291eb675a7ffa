import CSQLite

/// One connection's prepared statements, keyed by their SQL text, the least recently used finalized
/// beyond their tier's capacity. Used on the connection's thread only (``SQLiteHandle``).
///
/// Two tiers (``tier(sql:bindCount:)``), each with its own capacity, so that one never evicts the other:
/// - fixed: the store's statements of a fixed shape (up to 32 bound values), about 160 in its code plus the
///   short `IN` lists and multi-row inserts some of them expand to;
/// - rows: the multi-row statements and long `IN` lists of batches and group pages. Their row counts are
///   a few fixed ones (``RowShapes``), so their texts repeat call after call (each full 500-row statement
///   of the batch endpoint), but each is large (a 500-row insert of the outbox's 19 columns takes 0.8 MB
///   prepared, one of 1,000 rows 1.6 MB): a few are kept, within `rowsCapacity` statements and
///   `rowsBytes` bytes (what SQLite says each takes, `SQLITE_STMTSTATUS_MEMUSED`).
/// A statement larger still is prepared for the call and finalized after it.
struct SQLiteStatementCache {
    enum Tier: Sendable {
        case fixed
        case rows
    }

    /// Room for every fixed text the store runs often.
    static let capacity = 512
    /// Room for the row statements of a batch's acceptance (its reads, outbox insert and content-states)
    /// and of a group page, at one or two row counts each.
    static let rowsCapacity = 24
    static let rowsBytes = 16 << 20
    /// A statement with more bound values than this is a row statement (the store's fixed statements have fewer).
    static let maximumBinds = 32
    /// A fixed statement longer than this is a row statement.
    static let maximumLength = 4_096
    /// A statement with more bound values than this, or longer than `maximumRowsLength`, is not kept.
    static let maximumRowsBinds = 20_000
    static let maximumRowsLength = 131_072

    private struct Entry {
        var statement: OpaquePointer
        var lastUse: UInt64
        var tier: Tier
        var bytes: Int
    }

    private var entries: [String: Entry] = [:]
    private var counts: [Tier: Int] = [.fixed: 0, .rows: 0]
    private var bytes: [Tier: Int] = [.fixed: 0, .rows: 0]
    private var uses: UInt64 = 0
    private let capacities: [Tier: Int]
    private let budgets: [Tier: Int]

    init(
        capacity: Int = SQLiteStatementCache.capacity, rowsCapacity: Int = SQLiteStatementCache.rowsCapacity,
        rowsBytes: Int = SQLiteStatementCache.rowsBytes
    ) {
        self.capacities = [.fixed: max(1, capacity), .rows: max(1, rowsCapacity)]
        self.budgets = [.fixed: .max, .rows: rowsBytes]
    }

    var count: Int { entries.count }

    /// How many statements of `tier` are kept.
    func count(_ tier: Tier) -> Int { counts[tier] ?? 0 }

    /// The tier a statement is kept in, nil when it is not kept.
    static func tier(sql: String, bindCount: Int) -> Tier? {
        let length = sql.utf8.count
        if bindCount <= maximumBinds && length <= maximumLength { return .fixed }
        if bindCount <= maximumRowsBinds && length <= maximumRowsLength { return .rows }
        return nil
    }

    /// The kept statement for `sql`, now the most recently used.
    mutating func statement(for sql: String) -> OpaquePointer? {
        uses &+= 1
        guard var entry = entries[sql] else { return nil }
        entry.lastUse = uses
        entries[sql] = entry
        return entry.statement
    }

    /// Keeps `statement` for `sql` in `tier`, where it takes `size` bytes; returns the statements it
    /// evicted (the least recently used of the same tier), which the caller finalizes. A statement larger
    /// than its tier's budget is not kept: false.
    mutating func keep(_ statement: OpaquePointer, for sql: String, in tier: Tier, size: Int = 0) -> (kept: Bool, evicted: [OpaquePointer]) {
        let budget = budgets[tier] ?? 0
        guard size <= budget else { return (false, []) }
        uses &+= 1
        var evicted = [OpaquePointer]()
        while count(tier) >= capacities[tier] ?? 1 || (bytes[tier] ?? 0) + size > budget,
            let oldest = entries.filter({ $0.value.tier == tier }).min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            evicted.append(oldest.value.statement)
            entries[oldest.key] = nil
            counts[tier, default: 0] -= 1
            bytes[tier, default: 0] -= oldest.value.bytes
        }
        entries[sql] = Entry(statement: statement, lastUse: uses, tier: tier, bytes: size)
        counts[tier, default: 0] += 1
        bytes[tier, default: 0] += size
        return (true, evicted)
    }

    /// The bytes the statements of `tier` take.
    func size(_ tier: Tier) -> Int { bytes[tier] ?? 0 }

    /// Forgets every statement; the caller finalizes them.
    mutating func removeAll() -> [OpaquePointer] {
        defer {
            entries = [:]
            counts = [.fixed: 0, .rows: 0]
            bytes = [.fixed: 0, .rows: 0]
        }
        return entries.values.map(\.statement)
    }
}
