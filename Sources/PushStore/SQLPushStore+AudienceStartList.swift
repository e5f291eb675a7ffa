import Foundation

/// The console's read of audience starts: a page of them, newest first, listed with the group sends.
extension SQLPushStore {
    package func audienceStartPage(before cursor: GroupSendCursor?, limit: Int) async throws(PushStoreError) -> [AudienceStart] {
        try Self.checkPageSize(limit)
        return try await run("audienceStartPage", readOnly: true) { session throws(PushStoreError) in
            var starts = [AudienceStart]()
            for row in try await Self.sendPageRows(session, table: "audience_starts", before: cursor, limit: limit) {
                starts.append(try await Self.withProgress(session, try Self.audienceStart(row), expandedAt: try row.optionalDate("expanded_at")))
            }
            return starts
        }
    }
}
