/// How many rows a multi-row statement carries, and how many values an `IN` list holds: one of a few fixed
/// counts, so that each such statement has a few texts that repeat call after call and stay prepared on
/// the connection (``SQLiteStatementCache``), instead of a text per row count, prepared and thrown away on
/// every call (the batch endpoint's 500-row statements: `sqlite3_prepare_v2` was 15.6% of the server's
/// CPU samples under its load, issue 29).
///
/// The counts: 1,000 and 500 (the batch endpoint's most and its common size, and the store's chunks), then
/// the powers of two below. An insert of another row count is split, largest first (737 rows: 500, 128,
/// 64, 32, 8, 4, 1); an `IN` list, or the rows an `UPDATE ... FROM` joins, is padded up with its last
/// value repeated (300 ids: 500 places), which leaves what it matches unchanged.
///
/// Only where a session says so (``SQLSession/fixedRowCounts``, SQLite): on PostgreSQL each statement is a
/// round trip and a multi-row one runs unnamed, so a chunk stays one statement of its own row count.
enum RowShapes {
    static let counts = [1000, 500, 256, 128, 64, 32, 16, 8, 4, 2, 1]

    /// `total` rows as statements of the fixed counts, none over `largest` (at least 1), largest first;
    /// unless `fixed` is false: as chunks of `largest` and the rest.
    static func pieces(_ total: Int, largest: Int, fixed: Bool = true) -> [Int] {
        guard fixed else {
            let size = max(1, largest)
            return stride(from: 0, to: max(0, total), by: size).map { min(size, total - $0) }
        }
        var pieces = [Int]()
        var left = total
        for count in counts where count <= max(1, largest) {
            while left >= count {
                pieces.append(count)
                left -= count
            }
        }
        return pieces
    }

    /// The places an `IN` list of `count` values is given: the smallest fixed count that holds them, at
    /// most `limit`; `count` itself when none does, or when `fixed` is false.
    static func padded(_ count: Int, limit: Int, fixed: Bool = true) -> Int {
        guard count > 0, fixed else { return count }
        return counts.last { $0 >= count && $0 <= limit } ?? count
    }
}
