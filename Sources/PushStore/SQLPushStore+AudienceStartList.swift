import Foundation

/// The console's read of audience starts: a page of them, newest first, listed with the group sends.
extension SQLPushStore {
    package func audienceStartPage(before cursor: GroupSendCursor?, limit: Int) async throws(PushStoreError) -> [AudienceStart] {
        try Self.checkPageSize(limit)
        return try await run("audienceStartPage", readOnly: true) { session throws(PushStoreError) in
            let rows: [SQLRow]
            if let cursor {
                rows = try await session.query(
                    """
                    SELECT * FROM audience_starts WHERE (accepted_at, send_id) < (?, ?)
                    ORDER BY accepted_at DESC, send_id DESC LIMIT ?
                    """, [.date(cursor.acceptedAt), .uuid(cursor.sendID), .int(limit)])
            } else {
                rows = try await session.query("SELECT * FROM audience_starts ORDER BY accepted_at DESC, send_id DESC LIMIT ?", [.int(limit)])
            }
            var starts = [AudienceStart]()
            for row in rows {
                starts.append(try await Self.withProgress(session, try Self.audienceStart(row), expandedAt: try row.optionalDate("expanded_at")))
            }
            return starts
        }
    }
}
