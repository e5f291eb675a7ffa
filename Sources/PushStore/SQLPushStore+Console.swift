import Foundation

/// The ``ConsoleStore`` operations. Each list reads one index range (schema version 8): activities by
/// id (the primary key), by user (`activities_user_id`), by group (`activity_groups`' primary key);
/// group sends by acceptance (`group_sends_accepted`); deliveries by when they were written
/// (`deliveries_recorded`).
extension SQLPushStore {
    static let maximumPageSize = 500

    package func activityPage(_ query: ActivityPageQuery) async throws(PushStoreError) -> [ActivityRecord] {
        try Self.checkPageSize(query.limit)
        try Validation.optionalIdentifier(query.userID, field: "userId")
        try Validation.optionalIdentifier(query.groupID, field: "groupId")
        try Validation.optionalIdentifier(query.after, field: "cursor")
        let after = SQLValue.text(query.after ?? "")
        return try await run("activityPage", readOnly: true) { session throws(PushStoreError) in
            let rows: [SQLRow]
            if let user = query.userID, let group = query.groupID {
                rows = try await session.query(
                    """
                    SELECT a.* FROM activity_groups g JOIN activities a ON a.activity_id = g.activity_id
                    WHERE g.group_name = ? AND a.user_id = ? AND g.activity_id > ? ORDER BY g.activity_id LIMIT ?
                    """, [.text(group), .text(user), after, .int(query.limit)])
            } else if let user = query.userID {
                rows = try await session.query(
                    "SELECT * FROM activities WHERE user_id = ? AND activity_id > ? ORDER BY activity_id LIMIT ?",
                    [.text(user), after, .int(query.limit)])
            } else if let group = query.groupID {
                rows = try await session.query(
                    """
                    SELECT a.* FROM activity_groups g JOIN activities a ON a.activity_id = g.activity_id
                    WHERE g.group_name = ? AND g.activity_id > ? ORDER BY g.activity_id LIMIT ?
                    """, [.text(group), after, .int(query.limit)])
            } else {
                rows = try await session.query(
                    "SELECT * FROM activities WHERE activity_id > ? ORDER BY activity_id LIMIT ?", [after, .int(query.limit)])
            }
            var activities = [ActivityRecord]()
            for row in rows { activities.append(try RowDecoding.activity(row)) }
            return activities
        }
    }

    package func groupSendPage(before cursor: GroupSendCursor?, limit: Int) async throws(PushStoreError) -> [GroupSend] {
        try await sendPage("groupSendPage", table: "group_sends", before: cursor, limit: limit) { session, row throws(PushStoreError) in
            try await Self.withProgress(session, try RowDecoding.groupSend(row), expandedAt: try row.optionalDate("expanded_at"))
        }
    }

    /// A page of a table of sends (`group_sends`, `audience_starts`), newest first, after `cursor` when one
    /// is given, each send read from its row by `read`: the console's keyset paging of both.
    func sendPage<Send: Sendable>(
        _ operation: String, table: String, before cursor: GroupSendCursor?, limit: Int,
        read: @escaping @Sendable (any SQLSession, SQLRow) async throws(PushStoreError) -> Send
    ) async throws(PushStoreError) -> [Send] {
        try Self.checkPageSize(limit)
        return try await run(operation, readOnly: true) { session throws(PushStoreError) in
            let rows: [SQLRow]
            if let cursor {
                rows = try await session.query(
                    """
                    SELECT * FROM \(table) WHERE (accepted_at, send_id) < (?, ?)
                    ORDER BY accepted_at DESC, send_id DESC LIMIT ?
                    """, [.date(cursor.acceptedAt), .uuid(cursor.sendID), .int(limit)])
            } else {
                rows = try await session.query("SELECT * FROM \(table) ORDER BY accepted_at DESC, send_id DESC LIMIT ?", [.int(limit)])
            }
            var sends = [Send]()
            for row in rows { sends.append(try await read(session, row)) }
            return sends
        }
    }

    package func deliveryTallies(since: Date) async throws(PushStoreError) -> [DeliveryTally] {
        try await run("deliveryTallies", readOnly: true) { session throws(PushStoreError) in
            var tallies = [DeliveryTally]()
            for row in try await session.query(
                """
                SELECT outcome, reason, COUNT(*) AS n,
                    CAST(SUM(CASE WHEN downgrade_reason IS NULL THEN 0 ELSE 1 END) AS BIGINT) AS downgraded
                FROM deliveries WHERE recorded_at >= ? GROUP BY outcome, reason
                """, [.date(since)])
            {
                tallies.append(
                    DeliveryTally(
                        outcome: try row.enumValue("outcome", as: DeliveryOutcome.self), reason: try row.optionalString("reason"),
                        count: try row.int("n"), downgraded: try row.int("downgraded")))
            }
            // Pushes group pages sent as planned are counted from their page records.
            let pagePushes = try await Self.pagePushCount(session, since: since)
            if pagePushes > 0 {
                if let index = tallies.firstIndex(where: { $0.outcome == .accepted && $0.reason == nil }) {
                    tallies[index].count += pagePushes
                } else {
                    tallies.append(DeliveryTally(outcome: .accepted, reason: nil, count: pagePushes, downgraded: 0))
                }
            }
            return tallies
        }
    }

    package func openGroupSendCount() async throws(PushStoreError) -> Int {
        try await run("openGroupSendCount", readOnly: true) { session throws(PushStoreError) in
            try await session.first("SELECT COUNT(*) AS n FROM group_sends WHERE expanded = 0")?.int("n") ?? 0
        }
    }

    package func channelCounts() async throws(PushStoreError) -> [String: Int] {
        try await run("channelCounts", readOnly: true) { session throws(PushStoreError) in
            var counts: [String: Int] = [:]
            for row in try await session.query("SELECT bundle_id, COUNT(*) AS n FROM channels WHERE deleted_at IS NULL GROUP BY bundle_id") {
                counts[try row.string("bundle_id")] = try row.int("n")
            }
            return counts
        }
    }

    package func priority10Count(activityID: String, after: Date) async throws(PushStoreError) -> Int {
        try Validation.identifier(activityID, field: "activityId")
        return try await run("priority10Count", readOnly: true) { session throws(PushStoreError) in
            try await session.first(
                "SELECT COUNT(*) AS n FROM high_priority_pushes WHERE activity_id = ? AND at > ?", [.text(activityID), .date(after)]
            )?.int("n") ?? 0
        }
    }

    package func recordConsolePushes(_ pushIDs: [UUID], sentBy: String, at: Date) async throws(PushStoreError) {
        try Validation.identifier(sentBy, field: "sentBy", max: 200)
        guard !pushIDs.isEmpty else { return }
        let dialect = self.dialect
        let rows = pushIDs.map { [SQLValue.uuid($0), .text(sentBy), .date(at)] }
        try await run("recordConsolePushes") { session throws(PushStoreError) in
            try await Self.insertRows(session, dialect: dialect, table: "console_pushes", columns: ["push_id", "sent_by", "sent_at"], rows: rows)
        }
    }

    package func consolePushes(among pushIDs: [UUID]) async throws(PushStoreError) -> Set<UUID> {
        guard !pushIDs.isEmpty else { return [] }
        return try await run("consolePushes", readOnly: true) { session throws(PushStoreError) in
            var found = Set<UUID>()
            for row in try await Self.queryIn(
                session, "SELECT push_id FROM console_pushes WHERE push_id IN ({IN})", values: pushIDs.map(SQLValue.uuid))
            {
                found.insert(try row.uuid("push_id"))
            }
            return found
        }
    }

    static func checkPageSize(_ limit: Int) throws(PushStoreError) {
        guard (1...maximumPageSize).contains(limit) else {
            throw .invalidInput(field: "limit", rule: "is \(limit); a page holds 1 to \(maximumPageSize) entries")
        }
    }
}
