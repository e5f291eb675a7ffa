import Foundation

/// The console's read of audience starts: a page of them, newest first, listed with the group sends.
extension SQLPushStore {
    package func audienceStartPage(before cursor: GroupSendCursor?, limit: Int) async throws(PushStoreError) -> [AudienceStart] {
        try await sendPage("audienceStartPage", table: "audience_starts", before: cursor, limit: limit) { session, row throws(PushStoreError) in
            try await Self.withProgress(session, try Self.audienceStart(row), expandedAt: try row.optionalDate("expanded_at"))
        }
    }
}
