import Foundation

/// A group send's members that did not get it, for the console: read through the group's members
/// (`activity_groups`' primary key), each member's records of the send through `deliveries_target`.
extension SQLPushStore {
    package func groupSendMembers(sendID: UUID, limit: Int) async throws(PushStoreError) -> GroupSendMembers? {
        guard (1...Self.maximumPageSize).contains(limit) else {
            throw .invalidInput(field: "limit", rule: "is \(limit); a page holds 1 to \(Self.maximumPageSize) entries")
        }
        let dialect = dialect
        return try await run("groupSendMembers") { session throws(PushStoreError) in
            guard let sendRow = try await session.first("SELECT * FROM group_sends WHERE send_id = ?", [.uuid(sendID)]) else { return nil }
            let send = try RowDecoding.groupSend(sendRow)
            let failed = try await session.query(
                """
                SELECT d.* FROM activity_groups g
                JOIN deliveries d ON d.target_id = g.activity_id AND d.accepted_at >= ? AND d.send_id = ?
                WHERE g.group_name = ? AND d.outcome IN ('rejected', 'failed', 'expired')
                ORDER BY g.activity_id LIMIT ?
                """, [.date(send.acceptedAt), .uuid(sendID), .text(send.groupID), .int(limit)]
            ) { row throws(PushStoreError) in try RowDecoding.delivery(row) }
            // Handed out (up to the send's next member, or all once expanded), registered by the time of the
            // send, not eligible now, and holding neither a record of the send, a push of it waiting, nor a
            // line in one of its page records.
            let skipped = try await session.query(
                """
                SELECT a.* FROM activity_groups g JOIN activities a ON a.activity_id = g.activity_id
                WHERE g.group_name = ? AND a.registered_at <= ? AND (? = 1 OR a.activity_id <= ?)
                    AND (a.state <> 'active' OR a.token_state <> 'valid')
                    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.target_id = a.activity_id AND d.accepted_at >= ? AND d.send_id = ?)
                    AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.target_id = a.activity_id AND o.send_id = ?)
                    AND NOT EXISTS (
                        SELECT 1 FROM group_send_page_records p WHERE p.send_id = ? AND p.first_id <= a.activity_id
                            AND p.last_id >= a.activity_id AND \(dialect.positionFunction)(p.members, ? || a.activity_id || ?) > 0)
                ORDER BY g.activity_id LIMIT ?
                """,
                [
                    .text(send.groupID), .date(send.acceptedAt), .int(send.expanded ? 1 : 0), .text(try sendRow.string("next_member")),
                    .date(send.acceptedAt), .uuid(sendID), .uuid(sendID), .uuid(sendID), .text("\n"), .text("\t"), .int(limit),
                ]
            ) { row throws(PushStoreError) in try RowDecoding.activity(row) }
            return GroupSendMembers(failed: failed, skipped: skipped)
        }
    }
}
