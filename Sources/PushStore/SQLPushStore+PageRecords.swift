import APNsCore
import Foundation
import LiveActivity

/// The pushes a group page sent as planned, one row per page (``AcceptedPagePushes``): written with the
/// page's other outcomes, read back into an activity's history, counted for the console.
extension SQLPushStore {
    static func recordAcceptedPushes(_ session: any SQLSession, page: GroupSendPage, _ accepted: AcceptedPagePushes, at: Date)
        async throws(PushStoreError)
    {
        guard let sentAt = accepted.lastSentAt, accepted.count > 0 else { return }
        // A page is recorded once (its claim row goes in the same transaction); a conflict is a page of a
        // send recorded under another claim after a crash, with the same derived push ids.
        try await session.execute(
            """
            INSERT INTO group_send_page_records (send_id, first_id, last_id, sent_at, recorded_at, accepted, members)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """,
            [
                .uuid(page.send.sendID), .text(page.firstID), .text(page.lastID), .date(sentAt), .date(at), .int(accepted.count),
                .text(accepted.stored),
            ])
    }

    /// The activity's pushes held in page records, newest first (by send, then record): of the groups it is
    /// in (or only `groups`), recorded since it was registered (an id used again after the activity was
    /// forgotten does not inherit its pushes), at most `limit`. For each send of those groups, the one page
    /// that can hold the activity is the last one starting at or before its id.
    static func pagePushes(
        _ session: any SQLSession, activityID: String, groups: [String]? = nil, limit: Int? = nil, dialect: SQLDialect
    ) async throws(PushStoreError) -> [DeliveryRecord] {
        if let groups, groups.isEmpty { return [] }
        let inGroups = groups.map { " AND g.group_name IN (\(Array(repeating: "?", count: $0.count).joined(separator: ", ")))" } ?? ""
        let binds: [SQLValue] =
            [.text(activityID), .text(activityID)] + (groups ?? []).map { .text($0) }
            + [.text(activityID), .text(AcceptedPagePushes.linePrefix(of: activityID))] + (limit.map { [.int($0)] } ?? [])
        return try await session.query(
            """
            SELECT s.send_id, s.kind, s.accepted_at, s.requested_priority, p.sent_at, p.recorded_at, p.members
            FROM activity_groups g
            JOIN activities a ON a.activity_id = g.activity_id
            JOIN group_sends s ON s.group_id = g.group_name
            JOIN group_send_page_records p ON p.send_id = s.send_id AND p.first_id = (
                SELECT MAX(q.first_id) FROM group_send_page_records q WHERE q.send_id = s.send_id AND q.first_id <= ?)
            WHERE g.activity_id = ?\(inGroups) AND p.last_id >= ? AND p.recorded_at >= a.registered_at
                AND \(dialect.positionFunction)(p.members, ?) > 0
            ORDER BY s.accepted_at DESC, p.recorded_at DESC\(limit == nil ? "" : " LIMIT ?")
            """, binds
        ) { row throws(PushStoreError) in try pagePush(row, activityID: activityID) }
    }

    /// One push of a page record, as the history entry it would have had.
    private static func pagePush(_ row: SQLRow, activityID: String) throws(PushStoreError) -> DeliveryRecord {
        let sendID = try row.uuid("send_id")
        let pushID = GroupSend.pushID(sendID: sendID, activityID: activityID)
        let priority = try RowDecoding.priority(row, "requested_priority")
        return DeliveryRecord(
            pushID: pushID, target: .activity(id: activityID), kind: try row.enumValue("kind", as: LiveActivityEvent.self),
            acceptedAt: try row.date("accepted_at"), sentAt: try row.date("sent_at"), priority: priority, requestedPriority: priority,
            downgradeReason: nil, apnsID: pushID.lowercased, status: 200, reason: nil, attempts: 1, outcome: .accepted,
            coalescedInto: nil, recordedAt: try row.date("recorded_at"), sendID: sendID,
            apnsUniqueID: try AcceptedPagePushes.uniqueID(of: activityID, in: try row.string("members")))
    }

    /// Before an activity leaves `groups`: its pushes held in their page records become history rows of its
    /// own, since the page records are found through the groups.
    static func keepPagePushes(_ session: any SQLSession, activityID: String, leaving groups: [String], dialect: SQLDialect)
        async throws(PushStoreError)
    {
        let records = try await pagePushes(session, activityID: activityID, groups: groups, dialect: dialect)
        try await insertRows(
            session, dialect: dialect, table: "deliveries", columns: RowDecoding.deliveryColumns, items: records,
            suffix: " ON CONFLICT DO NOTHING", values: RowDecoding.deliveryValues)
    }

    /// How many pushes page records hold that were recorded since `since`.
    static func pagePushCount(_ session: any SQLSession, since: Date) async throws(PushStoreError) -> Int {
        try await session.first(
            "SELECT CAST(COALESCE(SUM(accepted), 0) AS BIGINT) AS n FROM group_send_page_records WHERE recorded_at >= ?", [.date(since)]
        )?.int("n") ?? 0
    }
}
