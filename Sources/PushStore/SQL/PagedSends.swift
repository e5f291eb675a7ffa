import Foundation

/// What group sends and audience starts share in handing out their pages: a record per send (`sends`,
/// keyed by `send_id`, with `next_member`, `expanded` and `expanded_at`), its pages out with a worker
/// (`pages`, leased rows naming `first_id` and `last_id`), and one claim over both.
struct PagedSends: Sendable {
    /// The table of the sends' records.
    let sends: String
    /// Their pages being sent.
    let pages: LeasedRows
    /// Names a send in errors.
    let noun: String
    /// Whether a send counts the members paged so far (`targeted`); an audience start counts its
    /// targets when each page is recorded.
    let countsPaged: Bool

    static let groupSends = PagedSends(sends: "group_sends", pages: .groupPages, noun: "group send", countsPaged: true)
    static let audienceStarts = PagedSends(sends: "audience_starts", pages: .audiencePages, noun: "audience start", countsPaged: false)

    /// Whether ``claim(_:dialect:owner:now:until:pageSize:members:)`` could find work at `now`: a page whose
    /// claim expired, or a send still being expanded. A read, for the many polls that find nothing: they
    /// need no write transaction (a turn at SQLite's one writer) to learn it.
    func hasWork(_ session: any SQLSession, now: Date) async throws(PushStoreError) -> Bool {
        let row = try await session.first(
            """
            SELECT CASE WHEN EXISTS (SELECT 1 FROM \(pages.table) WHERE claim_until <= ?)
                OR EXISTS (SELECT 1 FROM \(sends) WHERE expanded = 0) THEN 1 ELSE 0 END AS due
            """, [.date(now)])
        return try row?.int("due") == 1
    }

    /// Claims one page for `owner` until `until`, inside the caller's transaction: a page whose claim
    /// expired at `now` first (its claimer died or stopped; it was handed out before any new one), else
    /// the next up to `pageSize` members of the oldest send still being expanded, cut under that send's
    /// row lock (PostgreSQL). `members` reads a send's members after `next` in order, at most `pageSize`; a
    /// send found empty is marked expanded and the next one looked at (a few per call: each costs one
    /// indexed read). Returns the send's row and the page's range; nil when there is no work.
    func claim(
        _ session: any SQLSession, dialect: SQLDialect, owner: String, now: Date, until: Date, pageSize: Int,
        members: (_ send: SQLRow, _ next: String) async throws(PushStoreError) -> [String]
    ) async throws(PushStoreError) -> (send: SQLRow, first: String, last: String)? {
        if let page = try await pages.claim(
            session, dialect: dialect, owner: owner, now: now, until: until, limit: 1, returning: "send_id, first_id, last_id"
        ).first {
            guard let send = try await session.first("SELECT * FROM \(sends) WHERE send_id = ?", [try page.value("send_id")]) else {
                throw .database(detail: "page of a missing \(noun) \(try page.string("send_id"))")
            }
            return (send, try page.string("first_id"), try page.string("last_id"))
        }
        for _ in 0..<8 {
            guard
                let send = try await session.first(
                    "SELECT * FROM \(sends) WHERE expanded = 0 ORDER BY accepted_at, send_id LIMIT 1\(dialect.forUpdateClause)", [])
            else { return nil }
            let sendID = try send.value("send_id")
            let ids = try await members(send, try send.string("next_member"))
            guard let first = ids.first, let last = ids.last else {
                try await session.execute("UPDATE \(sends) SET expanded = 1, expanded_at = ? WHERE send_id = ?", [.date(now), sendID])
                continue
            }
            try await session.execute(
                "INSERT INTO \(pages.table) (send_id, first_id, last_id, claim_owner, claim_until) VALUES (?, ?, ?, ?, ?)",
                [sendID, .text(first), .text(last), .text(owner), .date(until)])
            let lastPage = ids.count < pageSize
            let counting: (assignment: String, binds: [SQLValue]) = countsPaged ? ("targeted = targeted + ?, ", [.int(ids.count)]) : ("", [])
            try await session.execute(
                "UPDATE \(sends) SET \(counting.assignment)next_member = ?, expanded = ?, expanded_at = ? WHERE send_id = ?",
                counting.binds + [.text(last), .int(lastPage ? 1 : 0), lastPage ? .date(now) : .null, sendID])
            return (send, first, last)
        }
        return nil
    }
}
