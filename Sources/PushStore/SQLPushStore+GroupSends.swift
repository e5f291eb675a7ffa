import Foundation

/// The ``GroupSendStore`` operations.
extension SQLPushStore {
    package func createGroupSend(_ send: GroupSend) async throws(PushStoreError) {
        try Validation.identifier(send.groupID, field: "groupId")
        try Validation.identifier(send.createdBy, field: "createdBy", max: 200)
        try send.template.validate()
        guard send.kind != .start else {
            throw .invalidInput(field: "kind", rule: "is start; a group send is an update or an end")
        }
        let columns =
            ["send_id", "group_id", "kind"] + SendTemplate.columns
            + ["dismissal_date", "accepted_at", "created_by", "next_member", "targeted", "expanded", "expanded_at"]
        let values: [SQLValue] =
            [.uuid(send.sendID), .text(send.groupID), .text(send.kind.rawValue)] + send.template.values
            + [.date(send.dismissalDate), .date(send.acceptedAt), .text(send.createdBy), .text(""), .int(0), .int(0), .null]
        let dialect = self.dialect
        try await run("createGroupSend") { session throws(PushStoreError) in
            if try await session.first("SELECT send_id FROM group_sends WHERE send_id = ?", [.uuid(send.sendID)]) != nil {
                throw .conflict(detail: "group send \(send.sendID.lowercased) exists")
            }
            try await Self.insertRows(session, dialect: dialect, table: "group_sends", columns: columns, rows: [values])
        }
    }

    package func groupSend(id: UUID) async throws(PushStoreError) -> GroupSend? {
        try await run("groupSend", readOnly: true) { session throws(PushStoreError) in
            guard let row = try await session.first("SELECT * FROM group_sends WHERE send_id = ?", [.uuid(id)]) else { return nil }
            return try await Self.withProgress(session, try RowDecoding.groupSend(row), expandedAt: try row.optionalDate("expanded_at"))
        }
    }

    /// `send` with its counts (the sum of its tallies) and, when nothing of it is pending, when it finished.
    /// Read in this order without a transaction: the send row (by the caller), then whether a page is out,
    /// then the tallies. A page recorded in between has its tally written before it is removed, so a send
    /// seen finished is seen with every count.
    static func withProgress(_ session: any SQLSession, _ send: GroupSend, expandedAt: Date?) async throws(PushStoreError) -> GroupSend {
        var send = send
        let pagesOut = try await session.first("SELECT first_id FROM group_send_pages WHERE send_id = ? LIMIT 1", [.uuid(send.sendID)]) != nil
        let tally = try await sendTally(session, sendID: send.sendID)
        send.progress.sent = tally.sent
        send.progress.failed = tally.failed
        send.progress.downgraded = tally.downgraded
        send.progress.coalesced = tally.coalesced
        send.progress.skipped = tally.skipped
        send.progress.retrying = tally.retrying
        send.finishedAt = finishedAt(
            expanded: send.expanded, pagesOut: pagesOut, retrying: tally.retrying, expandedAt: expandedAt, lastTally: tally.last)
        return send
    }

    /// The sums of a send's `group_send_tallies` (a group send's, or an audience start's delivery counts);
    /// zeros and no `last` when it has none yet.
    struct SendTally {
        var sent = 0, failed = 0, downgraded = 0, coalesced = 0, skipped = 0, retrying = 0
        var last: Date?
    }

    static func sendTally(_ session: any SQLSession, sendID: UUID) async throws(PushStoreError) -> SendTally {
        var tally = SendTally()
        if let row = try await session.first(
            """
            SELECT COUNT(*) AS n, CAST(SUM(sent) AS BIGINT) AS sent, CAST(SUM(failed) AS BIGINT) AS failed,
                CAST(SUM(downgraded) AS BIGINT) AS downgraded, CAST(SUM(coalesced) AS BIGINT) AS coalesced,
                CAST(SUM(skipped) AS BIGINT) AS skipped, CAST(SUM(retrying) AS BIGINT) AS retrying, MAX(recorded_at) AS last
            FROM group_send_tallies WHERE send_id = ?
            """, [.uuid(sendID)]), try row.int("n") > 0
        {
            tally.sent = try row.int("sent")
            tally.failed = try row.int("failed")
            tally.downgraded = try row.int("downgraded")
            tally.coalesced = try row.int("coalesced")
            tally.skipped = try row.int("skipped")
            tally.retrying = try row.int("retrying")
            tally.last = try row.optionalDate("last")
        }
        return tally
    }

    /// When a send finished: once it is expanded, no page is out and nothing waits for a retry, at its last
    /// tally (or its expansion, when that came later); nil before.
    static func finishedAt(expanded: Bool, pagesOut: Bool, retrying: Int, expandedAt: Date?, lastTally: Date?) -> Date? {
        guard expanded, !pagesOut, retrying == 0, let expandedAt else { return nil }
        return max(lastTally ?? expandedAt, expandedAt)
    }

    package func groupHasMembers(_ group: String) async throws(PushStoreError) -> Bool {
        try Validation.identifier(group, field: "group")
        return try await run("groupHasMembers", readOnly: true) { session throws(PushStoreError) in
            try await session.first("SELECT activity_id FROM activity_groups WHERE group_name = ? LIMIT 1", [.text(group)]) != nil
        }
    }

    package func claimPage(owner: String, pageSize: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> GroupSendPage? {
        try Validation.claim(owner: owner, limit: pageSize, lease: lease, of: "members")
        return try await claimSendPage(
            of: .groupSends, operations: ("claimPage", "pageMembers"), owner: owner, pageSize: pageSize, now: now, lease: lease,
            send: RowDecoding.groupSend,
            members: { session, send, next throws(PushStoreError) in
                try await session.query(
                    "SELECT activity_id FROM activity_groups WHERE group_name = ? AND activity_id > ? ORDER BY activity_id LIMIT ?",
                    [.text(send.groupID), .text(next), .int(pageSize)]
                ) { row throws(PushStoreError) in try row.string("activity_id") }
            },
            page: { session, send, first, last throws(PushStoreError) in
                try await Self.page(session, send: send, first: first, last: last)
            })
    }

    package func renewPage(_ page: GroupSendPage, owner: String, until: Date) async throws(PushStoreError) -> Bool {
        try await renewSendPage(of: .groupSends, operation: "renewPage", sendID: page.send.sendID, firstID: page.firstID, owner: owner, until: until)
    }

    /// The page `first...last` of `send`: its members as stored now, and a newer routine update that
    /// replaces it.
    private static func page(_ session: any SQLSession, send: GroupSend, first: String, last: String)
        async throws(PushStoreError) -> GroupSendPage
    {
        // What sending needs, without each member's groups and last content state (JSON the page would
        // parse for nothing): the records carry no groups and no content state.
        let activities = try await session.query(
            """
            SELECT a.activity_id, a.push_token, a.bundle_id, a.attributes_type, a.environment, a.user_id,
                '[]' AS groups_json, a.frequent_pushes, a.state, a.token_state, a.token_invalid_reason,
                a.token_invalidated_at, a.token_valid_since, a.registered_at, a.updated_at, a.started_at, a.ended_at,
                a.dismissal_date, NULL AS last_content_state, a.last_timestamp, a.last_accepted_at
            FROM activity_groups g JOIN activities a ON a.activity_id = g.activity_id
            WHERE g.group_name = ? AND g.activity_id >= ? AND g.activity_id <= ? ORDER BY g.activity_id
            """, [.text(send.groupID), .text(first), .text(last)]
        ) { row throws(PushStoreError) in try RowDecoding.activity(row) }
        var newer: UUID?
        if send.isCoalescable {
            newer = try await session.first(
                """
                SELECT send_id FROM group_sends WHERE group_id = ? AND kind = 'update' AND importance = 'routine'
                    AND accepted_at > ? ORDER BY accepted_at DESC LIMIT 1
                """, [.text(send.groupID), .date(send.acceptedAt)]
            ).map { row throws(PushStoreError) in try row.uuid("send_id") }
        }
        return GroupSendPage(send: send, firstID: first, lastID: last, activities: activities, supersededBy: newer)
    }

    package func completePage(_ page: GroupSendPage, owner: String, outcome: GroupSendPageOutcome, at: Date, journal: WebhookJournal?)
        async throws(PushStoreError) -> GroupSendPageReport
    {
        let records = try PagedSends.checkedRecords(outcome.records, retries: outcome.retries, owner: owner)
        let dialect = self.dialect
        let send = page.send
        // Refused tokens are facts the app cannot learn again: a page that invalidates one waits for the disk.
        let commit: SQLCommit = outcome.invalidations.isEmpty ? .deferred : .durable
        return try await run("completePage", commit: commit) { session throws(PushStoreError) -> GroupSendPageReport in
            guard try await PagedSends.groupSends.finish(session, sendID: send.sendID, firstID: page.firstID, owner: owner) else {
                return GroupSendPageReport(held: false, endedNow: [])
            }
            try await PagedSends.insertOutcomes(session, dialect: dialect, records: records, retries: outcome.retries)
            try await Self.recordAcceptedPushes(session, page: page, outcome.accepted, at: at)
            if !outcome.contentStates.isEmpty {
                _ = try await Self.recordContentState(
                    session, outcome.contentStates, contentState: outcome.contentState,
                    acceptedAt: send.acceptedAt)
            }
            var endedNow: [String] = []
            if !outcome.ended.isEmpty {
                let ids = outcome.ended.sorted().map { SQLValue.text($0) }
                let active = try await Self.activeAmong(session, ids, dialect: dialect)
                let changed = try await Self.end(session, ids, at: at, dismissalDate: send.dismissalDate, returning: "activity_id, user_id")
                endedNow = outcome.ended.filter { active.contains($0) }
                try await Self.recordEnds(endedNow, rows: changed, at: at, in: journal, session: session, dialect: dialect)
            }
            let counts = Self.outcomeCounts(records)
            try await Self.addTally(
                session, sendID: send.sendID, at: at, sent: counts.sent + outcome.accepted.count, failed: counts.failed,
                downgraded: outcome.downgraded,
                coalesced: counts.coalesced, skipped: outcome.skipped, retrying: outcome.retries.count)
            let invalidated = try await Self.invalidate(session, outcome.invalidations, journal: journal, dialect: dialect)
            return GroupSendPageReport(held: true, endedNow: endedNow, invalidated: invalidated)
        }
    }

    package func releasePages(owner: String) async throws(PushStoreError) -> Int {
        try await releaseAll(.groupPages, operation: "releasePages", owner: owner)
    }

    /// Adds the outcomes of group sends' retried pushes (outbox items that left the outbox) to their sends.
    static func countRetriedOutcomes(_ session: any SQLSession, _ records: [DeliveryRecord], at: Date) async throws(PushStoreError) {
        var bySend = [UUID: [DeliveryRecord]]()
        for record in records { if let sendID = record.sendID { bySend[sendID, default: []].append(record) } }
        for (sendID, records) in bySend.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let counts = outcomeCounts(records)
            try await addTally(
                session, sendID: sendID, at: at, sent: counts.sent, failed: counts.failed, downgraded: 0,
                coalesced: counts.coalesced, skipped: 0, retrying: -records.count)
        }
    }

    static func addTally(
        _ session: any SQLSession, sendID: UUID, at: Date, sent: Int, failed: Int, downgraded: Int, coalesced: Int, skipped: Int,
        retrying: Int
    ) async throws(PushStoreError) {
        try await session.execute(
            """
            INSERT INTO group_send_tallies (send_id, recorded_at, sent, failed, downgraded, coalesced, skipped, retrying)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.uuid(sendID), .date(at), .int(sent), .int(failed), .int(downgraded), .int(coalesced), .int(skipped), .int(retrying)])
    }

    static func outcomeCounts(_ records: [DeliveryRecord]) -> (sent: Int, failed: Int, coalesced: Int) {
        var counts = (sent: 0, failed: 0, coalesced: 0)
        for record in records {
            switch record.outcome {
            case .accepted: counts.sent += 1
            case .rejected, .failed, .expired: counts.failed += 1
            case .coalesced: counts.coalesced += 1
            }
        }
        return counts
    }

}
