import Foundation
import LiveActivity

/// The ``RenewalStore`` operations.
extension SQLPushStore {
    package func planRenewal(_ plan: RenewalPlan) async throws(PushStoreError) -> RenewalRecord {
        try Validation.identifier(plan.activityID, field: "activityId")
        try Validation.identifier(plan.userID, field: "userId")
        return try await run("planRenewal") { session throws(PushStoreError) in
            guard let activity = try await Self.fetchActivity(session, id: plan.activityID) else {
                throw .notFound(kind: .activity, id: plan.activityID)
            }
            try await Self.upsertPlan(session, plan, renewAt: activity.startedAt.addingTimeInterval(plan.renewBefore))
            guard let row = try await session.first("SELECT * FROM activity_renewals WHERE activity_id = ?", [.text(plan.activityID)]) else {
                throw .notFound(kind: .activity, id: plan.activityID)
            }
            return try Self.renewal(row)
        }
    }

    /// Inserts the plan, or replaces a waiting one's (a renewal under way is left as it is).
    private static func upsertPlan(_ session: any SQLSession, _ plan: RenewalPlan, renewAt: Date) async throws(PushStoreError) {
        try await session.execute(
            """
            INSERT INTO activity_renewals (activity_id, user_id, attributes_type, renew_before, attributes_json, alert_json,
                renews, renew_at, state, start_token_ids)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'waiting', '[]')
            ON CONFLICT (activity_id) DO UPDATE SET user_id = excluded.user_id, attributes_type = excluded.attributes_type,
                renew_before = excluded.renew_before, attributes_json = excluded.attributes_json, alert_json = excluded.alert_json,
                renews = COALESCE(excluded.renews, activity_renewals.renews), renew_at = excluded.renew_at
            WHERE activity_renewals.state = 'waiting'
            """,
            [
                .text(plan.activityID), .text(plan.userID), .text(plan.attributesType), .real(plan.renewBefore),
                .text(Self.text(plan.attributes)), .text(Self.text(plan.alert)), .text(plan.renews), .date(renewAt),
            ])
    }

    package func renewal(activityID: String) async throws(PushStoreError) -> RenewalRecord? {
        try Validation.identifier(activityID, field: "activityId")
        return try await renewals("renewal", "SELECT * FROM activity_renewals WHERE activity_id = ?", [.text(activityID)]).first
    }

    package func renewal(renewedBy activityID: String) async throws(PushStoreError) -> RenewalRecord? {
        try Validation.identifier(activityID, field: "activityId")
        // Links move to the newest activity as a chain grows: the one it took over from directly finished last.
        return try await renewals(
            "renewalRenewedBy", "SELECT * FROM activity_renewals WHERE renewed_by = ? ORDER BY finished_at DESC, activity_id", [.text(activityID)]
        ).first
    }

    package func dueRenewals(by date: Date) async throws(PushStoreError) -> [RenewalRecord] {
        try await renewals(
            "dueRenewals",
            """
            SELECT r.* FROM activity_renewals r JOIN activities a ON a.activity_id = r.activity_id
            WHERE r.state = 'waiting' AND r.renew_at <= ? AND a.state = 'active' ORDER BY r.renew_at, r.activity_id
            """, [.date(date)])
    }

    package func startingRenewals() async throws(PushStoreError) -> [RenewalRecord] {
        try await renewals("startingRenewals", "SELECT * FROM activity_renewals WHERE state = 'starting' ORDER BY renew_at, activity_id", [])
    }

    package func markRenewalStarting(activityID: String, tokenIDs: [UUID], at: Date) async throws(PushStoreError) -> Bool {
        try Validation.identifier(activityID, field: "activityId")
        let ids = tokenIDs.map { JSONValue.string($0.lowercased) }
        return try await run("markRenewalStarting") { session throws(PushStoreError) in
            try await !session.query(
                """
                UPDATE activity_renewals SET state = 'starting', start_token_ids = ?, started_at = ?
                WHERE activity_id = ? AND state = 'waiting' RETURNING activity_id
                """, [.text(Self.text(.array(ids))), .date(at), .text(activityID)]
            ).isEmpty
        }
    }

    /// Ends the open renewal (waiting or starting; `startedOnly`: starting) of `activityID` in `state`, with
    /// `column` set to `value` and `finished_at` to `at`; returns its row, nil when it was not open.
    private static func finishOpenRenewal(
        _ session: any SQLSession, _ activityID: String, as state: RenewalState, setting column: String, to value: SQLValue, at: Date,
        startedOnly: Bool = false
    ) async throws(PushStoreError) -> SQLRow? {
        try await session.first(
            """
            UPDATE activity_renewals SET state = ?, \(column) = ?, finished_at = ?
            WHERE activity_id = ? AND state IN (\(startedOnly ? "'starting'" : "'waiting', 'starting'")) RETURNING *
            """, [.text(state.rawValue), value, .date(at), .text(activityID)])
    }

    package func markRenewalFailed(activityID: String, reason: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError) -> Bool {
        try Validation.identifier(activityID, field: "activityId")
        let dialect = self.dialect
        return try await run("markRenewalFailed") { session throws(PushStoreError) in
            guard let row = try await Self.finishOpenRenewal(session, activityID, as: .failed, setting: "reason", to: .text(reason), at: at) else {
                return false
            }
            let fact = WebhookFact.renewalFailed(activityID: activityID, userID: try row.optionalString("user_id"), reason: reason, at: at)
            try await Self.record([fact], in: journal, session: session, dialect: dialect)
            return true
        }
    }

    package func linkRenewal(activityID: String, to newActivityID: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError)
        -> RenewalRecord?
    {
        try Validation.identifier(activityID, field: "activityId")
        try Validation.identifier(newActivityID, field: "renews")
        let dialect = self.dialect
        return try await run("linkRenewal") { session throws(PushStoreError) in
            // Never a cycle: the new activity is not in a chain yet (neither taken over nor a successor).
            guard newActivityID != activityID,
                try await session.first(
                    "SELECT activity_id FROM activity_renewals WHERE (activity_id = ? AND state = 'renewed') OR renewed_by = ?",
                    [.text(newActivityID), .text(newActivityID)]) == nil
            else { return nil }
            guard
                let row = try await Self.finishOpenRenewal(
                    session, activityID, as: .renewed, setting: "renewed_by", to: .text(newActivityID), at: at, startedOnly: true)
            else { return nil }
            // The chain stays short: every activity the old one took over from now points at the newest,
            // so a send by any old id follows one link.
            try await session.execute(
                "UPDATE activity_renewals SET renewed_by = ? WHERE renewed_by = ? AND state = 'renewed'",
                [.text(newActivityID), .text(activityID)])
            let record = try Self.renewal(row)
            guard let old = try await Self.fetchActivity(session, id: activityID),
                let new = try await Self.fetchActivity(session, id: newActivityID, forUpdate: dialect.forUpdateClause)
            else { throw .notFound(kind: .activity, id: newActivityID) }
            // The same user and groups as the activity it takes over from.
            let groups = Array(Set(old.groups + new.groups)).sorted()
            try await session.execute(
                "UPDATE activities SET user_id = ?, groups_json = ?, updated_at = ? WHERE activity_id = ?",
                [.text(old.userID ?? new.userID), .text(RowDecoding.groupsJSON(groups)), .date(at), .text(newActivityID)])
            try await session.execute("DELETE FROM activity_groups WHERE activity_id = ?", [.text(newActivityID)])
            try await Self.insertRows(
                session, dialect: dialect, table: "activity_groups", columns: ["group_name", "activity_id"],
                rows: groups.map { [SQLValue.text($0), .text(newActivityID)] })
            var next = record.plan
            next.activityID = newActivityID
            next.renews = activityID
            try await Self.upsertPlan(session, next, renewAt: new.startedAt.addingTimeInterval(next.renewBefore))
            let fact = WebhookFact.activityRenewed(activityID: activityID, userID: old.userID, renewedBy: newActivityID, at: at)
            try await Self.record([fact], in: journal, session: session, dialect: dialect)
            return record
        }
    }

    private func renewals(_ operation: String, _ sql: String, _ binds: [SQLValue]) async throws(PushStoreError) -> [RenewalRecord] {
        try await run(operation, readOnly: true) { session throws(PushStoreError) in
            try await session.query(sql, binds) { row throws(PushStoreError) in try Self.renewal(row) }
        }
    }

    private static func text(_ json: JSONValue) -> String { String(decoding: json.serialized(), as: UTF8.self) }

    private static func seconds(_ row: SQLRow, _ column: String) throws(PushStoreError) -> TimeInterval {
        switch try row.value(column) {
        case .real(let seconds): return seconds
        case .integer(let seconds): return TimeInterval(seconds)
        default: throw .database(detail: "column '\(column)' is not a number of seconds")
        }
    }

    static func renewal(_ row: SQLRow) throws(PushStoreError) -> RenewalRecord {
        func json(_ column: String) throws(PushStoreError) -> JSONValue {
            do {
                return try JSONValue.parse(try row.string(column))
            } catch {
                throw .database(detail: "column '\(column)' is not JSON: \(error)")
            }
        }
        let plan = RenewalPlan(
            activityID: try row.string("activity_id"), userID: try row.string("user_id"), attributesType: try row.string("attributes_type"),
            renewBefore: try Self.seconds(row, "renew_before"), attributes: try json("attributes_json"),
            alert: try json("alert_json"), renews: try row.optionalString("renews"))
        return RenewalRecord(
            plan: plan, renewAt: try row.date("renew_at"), state: try row.enumValue("state", as: RenewalState.self),
            reason: try row.optionalString("reason"),
            startTokenIDs: (try json("start_token_ids").arrayValue ?? []).compactMap { $0.stringValue.flatMap(UUID.init(uuidString:)) },
            startedAt: try row.optionalDate("started_at"), renewedBy: try row.optionalString("renewed_by"),
            finishedAt: try row.optionalDate("finished_at"))
    }
}
