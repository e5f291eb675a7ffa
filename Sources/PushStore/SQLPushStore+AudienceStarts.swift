import APNsCore
import Foundation

/// The ``AudienceStartStore`` operations: the group send's paging (``claimPage(owner:pageSize:now:lease:)``)
/// over the users of an audience instead of the members of a group.
extension SQLPushStore {
    private static let audienceColumns =
        ["send_id", "attributes_type", "everyone", "user_count", "bundle_id", "channel_id"] + SendTemplate.columns
        + ["accepted_at", "created_by", "next_member", "expanded", "expanded_at"]

    package func createAudienceStart(_ start: AudienceStart) async throws(PushStoreError) {
        try Validation.identifier(start.attributesType, field: "attributesType", max: 255)
        try Validation.identifier(start.createdBy, field: "createdBy", max: 200)
        try Validation.optionalIdentifier(start.bundleID, field: "bundleId", max: 255)
        try start.template.validate()
        // The users are not checked one by one again: up to 10,000 ids the caller has checked (the API's
        // contract, the domain's audience); a user listed twice breaks the table's key and stores nothing.
        let users = start.userIDs ?? []
        if let ids = start.userIDs, ids.isEmpty { throw .invalidInput(field: "userIds", rule: "is empty") }
        let values: [SQLValue] =
            [
                .uuid(start.sendID), .text(start.attributesType), .int(start.userIDs == nil ? 1 : 0), .int(users.count), .text(start.bundleID),
                .text(start.channelID?.lowercased),
            ] + start.template.values + [.date(start.acceptedAt), .text(start.createdBy), .text(""), .int(0), .null]
        let dialect = self.dialect
        // Formatted once, not once per user row (10,000 of them at most).
        let sendID = SQLValue.uuid(start.sendID)
        try await run("createAudienceStart") { session throws(PushStoreError) in
            if try await session.first("SELECT send_id FROM audience_starts WHERE send_id = ?", [.uuid(start.sendID)]) != nil {
                throw .conflict(detail: "audience start \(start.sendID.lowercased) exists")
            }
            try await Self.insertRows(session, dialect: dialect, table: "audience_starts", columns: Self.audienceColumns, rows: [values])
            try await Self.insertRows(
                session, dialect: dialect, table: "audience_start_users", columns: ["send_id", "user_id"], items: users
            ) { [sendID, .text($0)] }
        }
    }

    package func audienceStart(id: UUID) async throws(PushStoreError) -> AudienceStart? {
        try await run("audienceStart", readOnly: true) { session throws(PushStoreError) in
            guard let row = try await session.first("SELECT * FROM audience_starts WHERE send_id = ?", [.uuid(id)]) else { return nil }
            return try await Self.withProgress(session, try Self.audienceStart(row), expandedAt: try row.optionalDate("expanded_at"))
        }
    }

    /// `start` with its counts (the sums of its tallies) and, when nothing of it is pending, when it
    /// finished; read in the order of the group send's ``withProgress(_:_:expandedAt:)``.
    static func withProgress(_ session: any SQLSession, _ start: AudienceStart, expandedAt: Date?) async throws(PushStoreError)
        -> AudienceStart
    {
        var start = start
        let pagesOut =
            try await session.first("SELECT first_id FROM audience_start_pages WHERE send_id = ? LIMIT 1", [.uuid(start.sendID)]) != nil
        var last: Date?
        if let row = try await session.first(
            """
            SELECT COUNT(*) AS n, CAST(SUM(targeted) AS BIGINT) AS targeted, CAST(SUM(no_token) AS BIGINT) AS no_token,
                CAST(SUM(budget) AS BIGINT) AS budget, MAX(recorded_at) AS last
            FROM audience_start_tallies WHERE send_id = ?
            """, [.uuid(start.sendID)]), try row.int("n") > 0
        {
            start.progress.targeted = try row.int("targeted")
            start.progress.noToken = try row.int("no_token")
            start.progress.budget = try row.int("budget")
            last = try row.optionalDate("last")
        }
        let tally = try await sendTally(session, sendID: start.sendID)
        start.progress.sent = tally.sent
        start.progress.failed = tally.failed
        start.progress.retrying = tally.retrying
        let lastTally = [last, tally.last].compactMap { $0 }.max()
        start.finishedAt = finishedAt(
            expanded: start.expanded, pagesOut: pagesOut, retrying: tally.retrying, expandedAt: expandedAt, lastTally: lastTally)
        return start
    }

    package func hasValidPushToStartTokens(attributesType: String, bundleID: String?) async throws(PushStoreError) -> Bool {
        try Validation.identifier(attributesType, field: "attributesType", max: 255)
        return try await run("hasValidPushToStartTokens", readOnly: true) { session throws(PushStoreError) in
            let app = Self.ofApp(bundleID, column: "bundle_id")
            return try await session.first(
                "SELECT id FROM push_to_start_tokens WHERE attributes_type = ? AND token_state = 'valid'\(app.clause) LIMIT 1",
                [.text(attributesType)] + app.binds) != nil
        }
    }

    package func claimAudiencePage(owner: String, pageSize: Int, now: Date, lease: TimeInterval) async throws(PushStoreError)
        -> AudienceStartPage?
    {
        try Validation.claim(owner: owner, limit: pageSize, lease: lease, of: "users")
        return try await claimSendPage(
            of: .audienceStarts, operations: ("claimAudiencePage", "audiencePageUsers"), owner: owner, pageSize: pageSize, now: now,
            lease: lease, send: Self.audienceStart,
            members: { session, start, next throws(PushStoreError) in
                guard start.isEveryone else {
                    return try await session.query(
                        "SELECT user_id FROM audience_start_users WHERE send_id = ? AND user_id > ? ORDER BY user_id LIMIT ?",
                        [.uuid(start.sendID), .text(next), .int(pageSize)]
                    ) { row throws(PushStoreError) in try row.string("user_id") }
                }
                let app = Self.ofApp(start.bundleID, column: "bundle_id")
                return try await session.query(
                    """
                    SELECT DISTINCT user_id FROM push_to_start_tokens
                    WHERE attributes_type = ? AND token_state = 'valid'\(app.clause) AND user_id > ?
                    ORDER BY user_id LIMIT ?
                    """, [.text(start.attributesType)] + app.binds + [.text(next), .int(pageSize)]
                ) { row throws(PushStoreError) in try row.string("user_id") }
            },
            page: { session, start, first, last throws(PushStoreError) in
                try await Self.audiencePage(session, start: start, first: first, last: last)
            })
    }

    /// The page `first...last` of `start`: its users and their push-to-start tokens for the type, as
    /// stored now.
    private static func audiencePage(_ session: any SQLSession, start: AudienceStart, first: String, last: String)
        async throws(PushStoreError) -> AudienceStartPage
    {
        let bounds: [SQLValue] = [.text(first), .text(last)]
        let app = Self.ofApp(start.bundleID, column: "t.bundle_id")
        let tokens: [PushToStartTokenRecord]
        let users: [String]
        if start.isEveryone {
            tokens = try await session.query(
                """
                SELECT t.* FROM push_to_start_tokens t WHERE t.user_id >= ? AND t.user_id <= ?
                    AND t.attributes_type = ?\(app.clause) AND t.token_state = 'valid'
                ORDER BY t.user_id, t.device_id, t.bundle_id
                """, bounds + [.text(start.attributesType)] + app.binds
            ) { row throws(PushStoreError) in try RowDecoding.pushToStart(row) }
            var seen = Set<String>()
            users = tokens.map(\.userID).filter { seen.insert($0).inserted }
        } else {
            users = try await session.query(
                "SELECT user_id FROM audience_start_users WHERE send_id = ? AND user_id >= ? AND user_id <= ? ORDER BY user_id",
                [.uuid(start.sendID)] + bounds
            ) { row throws(PushStoreError) in try row.string("user_id") }
            tokens = try await session.query(
                """
                SELECT t.* FROM audience_start_users u JOIN push_to_start_tokens t ON t.user_id = u.user_id
                WHERE u.send_id = ? AND u.user_id >= ? AND u.user_id <= ? AND t.attributes_type = ?\(app.clause)
                ORDER BY t.user_id, t.device_id, t.bundle_id
                """, [.uuid(start.sendID)] + bounds + [.text(start.attributesType)] + app.binds
            ) { row throws(PushStoreError) in try RowDecoding.pushToStart(row) }
        }
        return AudienceStartPage(send: start, firstID: first, lastID: last, users: users, tokens: tokens)
    }

    package func renewAudiencePage(_ page: AudienceStartPage, owner: String, until: Date) async throws(PushStoreError) -> Bool {
        try await renewSendPage(
            of: .audienceStarts, operation: "renewAudiencePage", sendID: page.send.sendID, firstID: page.firstID, owner: owner, until: until)
    }

    package func completeAudiencePage(
        _ page: AudienceStartPage, owner: String, outcome: AudienceStartPageOutcome, at: Date, journal: WebhookJournal?
    ) async throws(PushStoreError) -> AudienceStartPageReport {
        let records = try PagedSends.checkedRecords(outcome.records, retries: outcome.retries, owner: owner)
        let dialect = self.dialect
        let sendID = page.send.sendID
        let commit: SQLCommit = outcome.invalidations.isEmpty ? .deferred : .durable
        return try await run("completeAudiencePage", commit: commit) { session throws(PushStoreError) -> AudienceStartPageReport in
            guard try await PagedSends.audienceStarts.finish(session, sendID: sendID, firstID: page.firstID, owner: owner) else {
                return AudienceStartPageReport(held: false)
            }
            // Each start push is a history row of its push-to-start token, which the budget counts.
            try await PagedSends.insertOutcomes(session, dialect: dialect, records: records, retries: outcome.retries)
            let counts = Self.outcomeCounts(records)
            try await Self.addTally(
                session, sendID: sendID, at: at, sent: counts.sent, failed: counts.failed + counts.coalesced, downgraded: 0, coalesced: 0,
                skipped: outcome.noToken + outcome.budget, retrying: outcome.retries.count)
            try await session.execute(
                "INSERT INTO audience_start_tallies (send_id, recorded_at, targeted, no_token, budget) VALUES (?, ?, ?, ?, ?)",
                [.uuid(sendID), .date(at), .int(outcome.targeted), .int(outcome.noToken), .int(outcome.budget)])
            let invalidated = try await Self.invalidate(session, outcome.invalidations, journal: journal, dialect: dialect)
            return AudienceStartPageReport(held: true, invalidated: invalidated)
        }
    }

    package func releaseAudiencePages(owner: String) async throws(PushStoreError) -> Int {
        try await releaseAll(.audiencePages, operation: "releaseAudiencePages", owner: owner)
    }

    /// The condition that keeps only tokens of one app, when the start names one.
    private static func ofApp(_ bundleID: String?, column: String) -> (clause: String, binds: [SQLValue]) {
        guard let bundleID else { return ("", []) }
        return (" AND \(column) = ?", [.text(bundleID)])
    }

    static func audienceStart(_ row: SQLRow) throws(PushStoreError) -> AudienceStart {
        var start = AudienceStart(
            sendID: try row.uuid("send_id"), attributesType: try row.string("attributes_type"), userIDs: nil,
            bundleID: try row.optionalString("bundle_id"), channelID: try row.optionalString("channel_id").flatMap(UUID.init(uuidString:)),
            template: try SendTemplate(row), acceptedAt: try row.date("accepted_at"), createdBy: try row.string("created_by"))
        start.userCount = try row.bool("everyone") ? 0 : try row.int("user_count")
        start.expanded = try row.bool("expanded")
        return start
    }
}
