import Foundation

/// A table whose rows are work handed out under a lease: an owner claims due rows until a date, renews
/// the claim while it works, and gives back what it still holds when it stops; a row whose lease ended is
/// due again, so work of a dead owner is taken over. The outbox, the group pages and the webhook events
/// are three values of this one mechanism. On PostgreSQL a claim skips rows another transaction has
/// locked, so two claimers never get the same row.
struct LeasedRows: Sendable {
    /// The table.
    let table: String
    /// The columns that name one row.
    let key: [String]
    /// The claim order, oldest first.
    let order: String
    /// The columns a claim or a renewal sets to the lease's end: `claim_until`, and the column that says
    /// when the row is due, when that is another one.
    let leaseColumns: [String]
    /// The assignments that give a row back, due at once (or at its next attempt).
    let releaseAssignments: String

    /// Pushes waiting to be sent; a rescheduled one is due at its next attempt.
    static let outbox = LeasedRows(
        table: "outbox", key: ["push_id"], order: "available_at, accepted_at, push_id",
        leaseColumns: ["claim_until", "available_at"],
        releaseAssignments: "claim_owner = NULL, claim_until = NULL, available_at = next_attempt_at")

    /// Webhook events waiting to be posted.
    static let webhooks = LeasedRows(
        table: "webhook_outbox", key: ["id"], order: "available_at, created_at, id", leaseColumns: ["claim_until", "available_at"],
        releaseAssignments: "claim_owner = NULL, claim_until = NULL, available_at = next_attempt_at")

    /// Pages of group sends being sent: a page row exists only while it is out, so it is due again when
    /// its lease ends (released: at once, `claim_until` 0).
    static let groupPages = LeasedRows(
        table: "group_send_pages", key: ["send_id", "first_id"], order: "claim_until, send_id, first_id",
        leaseColumns: ["claim_until"], releaseAssignments: "claim_until = 0")

    /// Pages of audience starts being sent, like ``groupPages``.
    static let audiencePages = LeasedRows(
        table: "audience_start_pages", key: ["send_id", "first_id"], order: "claim_until, send_id, first_id",
        leaseColumns: ["claim_until"], releaseAssignments: "claim_until = 0")

    private var due: String { leaseColumns.last ?? "claim_until" }
    private var keyList: String { key.count == 1 ? key[0] : "(\(key.joined(separator: ", ")))" }
    private var leaseAssignments: String { leaseColumns.map { "\($0) = ?" }.joined(separator: ", ") }
    private func lease(_ until: Date) -> [SQLValue] { Array(repeating: .date(until), count: leaseColumns.count) }
    private var keyMatch: String { key.map { "\($0) = ?" }.joined(separator: " AND ") }

    /// Claims up to `limit` rows due at `now` for `owner` until `until`, in the queue's order; returns the
    /// `returning` columns of each.
    func claim(
        _ session: any SQLSession, dialect: SQLDialect, owner: String, now: Date, until: Date, limit: Int, returning: String = "*"
    ) async throws(PushStoreError) -> [SQLRow] {
        try await session.query(
            """
            UPDATE \(table) SET claim_owner = ?, \(leaseAssignments)
            WHERE \(keyList) IN (
                SELECT \(key.joined(separator: ", ")) FROM \(table) WHERE \(due) <= ?
                ORDER BY \(order)
                LIMIT ?\(dialect.skipLockedClause)
            )
            RETURNING \(returning)
            """,
            [.text(owner)] + lease(until) + [.date(now), .int(limit)])
    }

    /// Extends `owner`'s claim on the rows named by `keys` (one value per key column each) to `until`;
    /// returns how many it still held.
    func renew(_ session: any SQLSession, owner: String, keys: [[SQLValue]], until: Date) async throws(PushStoreError) -> Int {
        let update = "UPDATE \(table) SET \(leaseAssignments) WHERE claim_owner = ? AND"
        if key.count == 1 {
            return try await SQLPushStore.queryIn(
                session, "\(update) \(key[0]) IN ({IN}) RETURNING \(key[0])", leading: lease(until) + [.text(owner)],
                values: keys.compactMap(\.first)
            ).count
        }
        var renewed = 0
        for values in keys {
            renewed += try await session.query("\(update) \(keyMatch) RETURNING \(key[0])", lease(until) + [.text(owner)] + values).count
        }
        return renewed
    }

    /// Gives back every row `owner` holds; returns how many.
    func release(_ session: any SQLSession, owner: String) async throws(PushStoreError) -> Int {
        try await session.query("UPDATE \(table) SET \(releaseAssignments) WHERE claim_owner = ? RETURNING \(key[0])", [.text(owner)]).count
    }

    /// The row named by `keyValues`, locked, after checking that `owner` holds its claim. `kind` and
    /// `noun` name the row in the error, `id` its key.
    func held(
        _ session: any SQLSession, dialect: SQLDialect, _ keyValues: [SQLValue], owner: String, kind: PushStoreRecordKind, noun: String,
        id: String
    ) async throws(PushStoreError) -> SQLRow {
        guard let row = try await session.first("SELECT * FROM \(table) WHERE \(keyMatch)\(dialect.forUpdateClause)", keyValues) else {
            throw .notFound(kind: kind, id: id)
        }
        let holder = try row.optionalString("claim_owner")
        guard holder == owner else {
            let held = holder.map { "claimed by '\($0)'" } ?? "not claimed"
            throw .conflict(detail: "\(noun) \(id) is \(held), not by '\(owner)'")
        }
        return row
    }

    /// Gives one held row back with back-off: due at `next`, with its attempts and last error (the
    /// queues that retry: the outbox and the webhook events). With `owner`, only while `owner` holds its
    /// claim. Returns whether the row was changed.
    @discardableResult
    func retry(_ session: any SQLSession, _ keyValues: [SQLValue], next: Date, attempts: Int, lastError: String, owner: String? = nil)
        async throws(PushStoreError) -> Bool
    {
        let held = owner == nil ? "" : " AND claim_owner = ?"
        return try await !session.query(
            """
            UPDATE \(table) SET attempts = ?, next_attempt_at = ?, available_at = ?, last_error = ?,
                claim_owner = NULL, claim_until = NULL
            WHERE \(keyMatch)\(held) RETURNING \(key[0])
            """, [.int(attempts), .date(next), .date(next), .text(lastError)] + keyValues + (owner.map { [SQLValue.text($0)] } ?? [])
        ).isEmpty
    }
}
