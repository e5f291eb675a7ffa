import APNsCore
import Foundation
import LiveActivity

/// The ``ActivityStore`` operations.
extension SQLPushStore {
    static func fetchActivity(_ session: any SQLSession, id: String, forUpdate: String = "") async throws(PushStoreError)
        -> ActivityRecord?
    {
        guard let row = try await session.first("SELECT * FROM activities WHERE activity_id = ?\(forUpdate)", [.text(id)])
        else { return nil }
        return try RowDecoding.activity(row)
    }

    /// Refuses a token that was retired, that another activity holds, or that another user holds as a
    /// push-to-start token (one token value, one holder, across both kinds).
    static func checkTokenUsable(
        _ session: any SQLSession, token: DeviceToken, for activityID: String, userID: String?, dialect: SQLDialect
    ) async throws(PushStoreError) {
        // The lock the push-to-start tokens take on the value: a registration and a push-to-start token
        // storing the same value at once cannot both pass (PostgreSQL; SQLite has one writer).
        if let lock = dialect.keyLockStatement {
            try await session.execute(lock, [.text(Self.tokenLockKey(token))])
        }
        if try await session.first(
            "SELECT id FROM push_to_start_tokens WHERE token = ? AND token_state = 'valid' AND user_id <> ?",
            [.text(token.hex), .text(userID ?? "")]) != nil
        {
            throw .taken(kind: .pushToStartToken, id: token.shortened)
        }
        let rows = try await session.query(
            """
            SELECT 'retired' AS why, activity_id FROM retired_tokens WHERE token = ?
            UNION ALL
            SELECT 'held' AS why, activity_id FROM activities WHERE push_token = ? AND activity_id <> ?
            """,
            [.text(token.hex), .text(token.hex), .text(activityID)])
        guard let row = rows.first else { return }
        // Another activity may be another user's: its id is never named.
        let whose = try row.string("activity_id") == activityID ? "this activity" : "another activity"
        if try row.string("why") == "retired" {
            throw .conflict(
                detail: "push token \(token.shortened) was replaced for \(whose) and is never used again; "
                    + "register the activity's current token")
        }
        throw .conflict(detail: "push token \(token.shortened) is the current token of another activity")
    }

    static func retire(_ session: any SQLSession, token: DeviceToken, activityID: String, at: Date)
        async throws(PushStoreError)
    {
        try await session.execute(
            "INSERT INTO retired_tokens (token, activity_id, retired_at) VALUES (?, ?, ?) ON CONFLICT (token) DO NOTHING",
            [.text(token.hex), .text(activityID), .date(at)])
    }

    package func register(_ registration: ActivityRegistration, ownership: RegistrationOwnership) async throws(PushStoreError)
        -> ActivityRecord
    {
        try Validation.registration(registration)
        // Registrations that arrive together share a transaction (``RegistrationGroups``).
        return try await registrationGroups.store(GroupedRegistration(registration: registration, ownership: ownership), in: self)
    }

    /// One registration (already validated) as a transaction of its own.
    func registerAlone(_ registration: ActivityRegistration, ownership: RegistrationOwnership) async throws(PushStoreError)
        -> ActivityRecord
    {
        let dialect = self.dialect
        return try await run("register") { session throws(PushStoreError) in
            try await Self.register(session, registration, ownership: ownership, dialect: dialect)
        }
    }

    /// The columns of a new activity's row, ``activityRow(_:)``'s values in this order.
    static let activityInsertColumns = [
        "activity_id", "push_token", "bundle_id", "attributes_type", "environment", "user_id", "groups_json", "frequent_pushes",
        "state", "token_state", "registered_at", "updated_at", "started_at", "token_valid_since",
    ]

    /// `INSERT INTO activities (columns) VALUES `, for ``activityInsert(rows:)``.
    private static let activityInsertPrefix = "INSERT INTO activities (\(activityInsertColumns.joined(separator: ", "))) VALUES "
    private static let activityInsertTuple = "(" + Array(repeating: "?", count: activityInsertColumns.count).joined(separator: ", ") + ")"
    private static let singleActivityInsert = activityInsert(rows: 1)

    /// Inserts `rows` new activities (``activityRow(_:)`` each), skipping an id already stored, returning the rows stored.
    static func activityInsert(rows: Int) -> String {
        activityInsertPrefix + Array(repeating: activityInsertTuple, count: rows).joined(separator: ", ")
            + " ON CONFLICT (activity_id) DO NOTHING RETURNING *"
    }

    /// A new activity's row: active, its token valid, registered, updated and started at its arrival.
    static func activityRow(_ registration: ActivityRegistration) -> [SQLValue] {
        [
            .text(registration.activityID), .text(registration.pushToken.hex), .text(registration.bundleID),
            .text(registration.attributesType), .text(registration.environment.rawValue), .text(registration.userID),
            .text(RowDecoding.groupsJSON(registration.groups)), .bool(registration.frequentPushesEnabled), .text("active"),
            .text("valid"), .date(registration.at), .date(registration.at), .date(registration.at), .date(registration.at),
        ]
    }

    /// The group memberships of new or re-registered activities (their old ones deleted).
    static func insertGroupRows(_ session: any SQLSession, _ registrations: [ActivityRegistration], dialect: SQLDialect)
        async throws(PushStoreError)
    {
        let rows = registrations.flatMap { registration in
            Set(registration.groups).sorted().map { [SQLValue.text($0), .text(registration.activityID)] }
        }
        try await insertRows(session, dialect: dialect, table: "activity_groups", columns: ["group_name", "activity_id"], rows: rows)
    }

    /// ``register(_:ownership:)`` inside a transaction, the registration already validated.
    static func register(
        _ session: any SQLSession, _ registration: ActivityRegistration, ownership: RegistrationOwnership, dialect: SQLDialect
    ) async throws(PushStoreError) -> ActivityRecord {
        let id = registration.activityID
        try await checkTokenUsable(session, token: registration.pushToken, for: id, userID: registration.userID, dialect: dialect)
        let inserted = try await session.query(singleActivityInsert, activityRow(registration))
        let record: ActivityRecord
        if let row = inserted.first {
            record = try RowDecoding.activity(row)
        } else {
            let existing = try await Self.fetchActivity(session, id: id, forUpdate: dialect.forUpdateClause)
            guard let existing else { throw .conflict(detail: "activity '\(id)' was deleted while registering") }
            // Decided here, on the row this transaction holds: whoever stored the id first keeps it.
            if ownership == .keep, existing.userID == nil || existing.userID != registration.userID {
                throw .taken(kind: .activity, id: id)
            }
            if existing.pushToken != registration.pushToken {
                try await Self.retire(session, token: existing.pushToken, activityID: id, at: registration.at)
            }
            let updated = try await session.query(
                """
                UPDATE activities SET push_token = ?, bundle_id = ?, attributes_type = ?, environment = ?,
                    user_id = ?, groups_json = ?, frequent_pushes = ?, token_state = 'valid',
                    token_invalid_reason = NULL, token_invalidated_at = NULL, updated_at = ?, token_valid_since = ?
                WHERE activity_id = ? RETURNING *
                """,
                [
                    .text(registration.pushToken.hex), .text(registration.bundleID),
                    .text(registration.attributesType), .text(registration.environment.rawValue),
                    .text(registration.userID), .text(RowDecoding.groupsJSON(registration.groups)), .bool(registration.frequentPushesEnabled),
                    .date(registration.at), .date(registration.at), .text(id),
                ])
            guard let row = updated.first else { throw .notFound(kind: .activity, id: id) }
            record = try RowDecoding.activity(row)
            let leaving = Set(existing.groups).subtracting(registration.groups).sorted()
            try await Self.keepPagePushes(session, activityID: id, leaving: leaving, dialect: dialect)
            try await session.execute("DELETE FROM activity_groups WHERE activity_id = ?", [.text(id)])
        }
        try await insertGroupRows(session, [registration], dialect: dialect)
        return record
    }

    package func rotateToken(activityID: String, newToken: DeviceToken, at: Date) async throws(PushStoreError) -> ActivityRecord {
        try Validation.identifier(activityID, field: "activityId")
        let dialect = self.dialect
        return try await run("rotateToken") { session throws(PushStoreError) in
            guard let existing = try await Self.fetchActivity(session, id: activityID, forUpdate: dialect.forUpdateClause)
            else { throw .notFound(kind: .activity, id: activityID) }
            if existing.pushToken == newToken {
                // The app reports its current token: valid again, as registering it again makes it.
                guard case .invalid = existing.tokenState else { return existing }
                let rows = try await session.query(
                    """
                    UPDATE activities SET token_state = 'valid', token_invalid_reason = NULL,
                        token_invalidated_at = NULL, updated_at = ?, token_valid_since = ?
                    WHERE activity_id = ? RETURNING *
                    """,
                    [.date(at), .date(at), .text(activityID)])
                guard let row = rows.first else { throw .notFound(kind: .activity, id: activityID) }
                return try RowDecoding.activity(row)
            }
            try await Self.checkTokenUsable(session, token: newToken, for: activityID, userID: existing.userID, dialect: dialect)
            try await Self.retire(session, token: existing.pushToken, activityID: activityID, at: at)
            let rows = try await session.query(
                """
                UPDATE activities SET push_token = ?, token_state = 'valid', token_invalid_reason = NULL,
                    token_invalidated_at = NULL, updated_at = ?, token_valid_since = ?
                WHERE activity_id = ? RETURNING *
                """,
                [.text(newToken.hex), .date(at), .date(at), .text(activityID)])
            guard let row = rows.first else { throw .notFound(kind: .activity, id: activityID) }
            return try RowDecoding.activity(row)
        }
    }

    package func markEnded(activityID: String, at: Date, dismissalDate: Date?, journal: WebhookJournal?) async throws(PushStoreError)
        -> ActivityStateChange
    {
        try Validation.identifier(activityID, field: "activityId")
        let dialect = self.dialect
        let ids: [SQLValue] = [.text(activityID)]
        return try await run("markEnded") { session throws(PushStoreError) in
            let wasActive = try await Self.activeAmong(session, ids, dialect: dialect)
            let changed = try await Self.end(session, ids, at: at, dismissalDate: dismissalDate, returning: "*")
            guard let row = changed.first else { throw .notFound(kind: .activity, id: activityID) }
            let change = ActivityStateChange(activity: try RowDecoding.activity(row), endedNow: !wasActive.isEmpty)
            if change.endedNow {
                try await Self.record(
                    [.activityEnded(activityID: activityID, userID: change.activity.userID, at: at)],
                    in: journal, session: session, dialect: dialect)
            }
            return change
        }
    }

    /// The ids among `ids` whose activity is active, locked (PostgreSQL, in id order) for the rest of the
    /// transaction, so that of concurrent state changes exactly one sees each of them active.
    static func activeAmong(_ session: any SQLSession, _ ids: [SQLValue], dialect: SQLDialect)
        async throws(PushStoreError) -> Set<String>
    {
        var active = Set<String>()
        for row in try await queryIn(
            session,
            """
            SELECT activity_id FROM activities WHERE state = 'active' AND activity_id IN ({IN})
            ORDER BY activity_id\(dialect.forUpdateClause)
            """,
            values: ids)
        {
            active.insert(try row.string("activity_id"))
        }
        return active
    }

    /// Marks the activities ended (a dismissed one stays dismissed), keeping an end time and a dismissal
    /// date already set; returns the `returning` columns of the rows changed.
    static func end(
        _ session: any SQLSession, _ ids: [SQLValue], at: Date, dismissalDate: Date?, returning: String
    ) async throws(PushStoreError) -> [SQLRow] {
        try await queryIn(
            session,
            """
            UPDATE activities SET state = CASE WHEN state = 'dismissed' THEN state ELSE 'ended' END,
                ended_at = COALESCE(ended_at, ?), dismissal_date = COALESCE(?, dismissal_date), updated_at = ?
            WHERE activity_id IN ({IN}) RETURNING \(returning)
            """,
            leading: [.date(at), .date(dismissalDate), .date(at)], values: ids)
    }

    package func markDismissed(activityID: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError)
        -> ActivityStateChange
    {
        try Validation.identifier(activityID, field: "activityId")
        let dialect = self.dialect
        return try await run("markDismissed") { session throws(PushStoreError) in
            let wasActive = !(try await Self.activeAmong(session, [.text(activityID)], dialect: dialect)).isEmpty
            let changed = try await session.query(
                """
                UPDATE activities SET state = 'dismissed', ended_at = COALESCE(ended_at, ?), updated_at = ?
                WHERE activity_id = ? RETURNING *
                """,
                [.date(at), .date(at), .text(activityID)])
            guard let row = changed.first else { throw .notFound(kind: .activity, id: activityID) }
            let change = ActivityStateChange(activity: try RowDecoding.activity(row), endedNow: wasActive)
            if change.endedNow {
                try await Self.record(
                    [.activityEnded(activityID: activityID, userID: change.activity.userID, at: at)],
                    in: journal, session: session, dialect: dialect)
            }
            return change
        }
    }

    package func dismissEnded(dismissedBy date: Date) async throws(PushStoreError) -> Int {
        try await run("dismissEnded") { session throws(PushStoreError) in
            try await session.query(
                """
                UPDATE activities SET state = 'dismissed', updated_at = ?
                WHERE state = 'ended' AND dismissal_date IS NOT NULL AND dismissal_date <= ?
                RETURNING activity_id
                """,
                [.date(date), .date(date)]
            ).count
        }
    }

    package func recordContentState(_ updates: [(activityID: String, timestamp: Date)], contentState: JSONValue?, acceptedAt: Date)
        async throws(PushStoreError) -> Int
    {
        for (index, update) in updates.enumerated() {
            try Validation.identifier(update.activityID, field: "updates[\(index)].activityId")
        }
        guard !updates.isEmpty else { return 0 }
        return try await run("recordContentStates") { session throws(PushStoreError) in
            try await Self.recordContentState(session, updates, contentState: contentState, acceptedAt: acceptedAt)
        }
    }

    /// ``recordContentState(_:contentState:acceptedAt:)`` inside a transaction.
    static func recordContentState(
        _ session: any SQLSession, _ updates: [(activityID: String, timestamp: Date)], contentState: JSONValue?, acceptedAt: Date
    ) async throws(PushStoreError) -> Int {
        // nil (an end without a final state) keeps the stored state and records only the timestamp.
        let state: SQLValue = contentState.map { .text(String(decoding: $0.serialized(), as: UTF8.self)) } ?? .null
        // One statement per timestamp and chunk of ids: a group send issues (nearly) all its activities the
        // same whole-second timestamp. Oldest first, so an id given twice keeps its newest state.
        var idsByTimestamp = [Date: [SQLValue]]()
        for update in updates { idsByTimestamp[update.timestamp, default: []].append(.text(update.activityID)) }
        var changed = 0
        for (timestamp, ids) in idsByTimestamp.sorted(by: { $0.key < $1.key }) {
            changed += try await queryIn(
                session,
                """
                UPDATE activities SET last_content_state = COALESCE(?, last_content_state), last_timestamp = ?,
                    last_accepted_at = CASE WHEN last_accepted_at IS NULL OR last_accepted_at < ? THEN ? ELSE last_accepted_at END,
                    updated_at = ?
                WHERE (last_timestamp IS NULL OR last_timestamp <= ?) AND activity_id IN ({IN})
                RETURNING activity_id
                """,
                leading: [state, .date(timestamp), .date(acceptedAt), .date(acceptedAt), .date(timestamp), .date(timestamp)],
                values: ids
            ).count
        }
        return changed
    }

    package func markEnded(activityIDs: [String], at: Date, dismissalDate: Date?, journal: WebhookJournal?) async throws(PushStoreError)
        -> [String]
    {
        for (index, activityID) in activityIDs.enumerated() {
            try Validation.identifier(activityID, field: "activityIds[\(index)]")
        }
        guard !activityIDs.isEmpty else { return [] }
        let ids = Array(Set(activityIDs)).sorted().map { SQLValue.text($0) }
        let dialect = self.dialect
        return try await run("markEndedBatch") { session throws(PushStoreError) -> [String] in
            let active = try await Self.activeAmong(session, ids, dialect: dialect)
            let changed = try await Self.end(session, ids, at: at, dismissalDate: dismissalDate, returning: "activity_id, user_id")
            let endedNow = activityIDs.filter { active.contains($0) }
            try await Self.recordEnds(endedNow, rows: changed, at: at, in: journal, session: session, dialect: dialect)
            return endedNow
        }
    }

    /// Stores the `activity.ended` events of `endedNow` (in that order), with the users of the `rows` the
    /// end returned (`activity_id, user_id`).
    static func recordEnds(
        _ endedNow: [String], rows: [SQLRow], at: Date, in journal: WebhookJournal?, session: any SQLSession,
        dialect: SQLDialect
    ) async throws(PushStoreError) {
        guard journal != nil, !endedNow.isEmpty else { return }
        var users = [String: String?]()
        for row in rows { users[try row.string("activity_id")] = try row.optionalString("user_id") }
        var seen = Set<String>()
        let facts = endedNow.compactMap { id -> WebhookFact? in
            guard seen.insert(id).inserted else { return nil }
            return .activityEnded(activityID: id, userID: users[id] ?? nil, at: at)
        }
        try await record(facts, in: journal, session: session, dialect: dialect)
    }

    package func markTokenInvalid(token: DeviceToken, reason: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError)
        -> ActivityRecord?
    {
        try Validation.text(reason, field: "reason", max: 200)
        let dialect = self.dialect
        let invalidation = TokenInvalidation(token: token, reason: reason, at: at)
        return try await run("markTokenInvalid") { session throws(PushStoreError) in
            try await Self.invalidate(session, [invalidation], journal: journal, dialect: dialect).activities.first
        }
    }

    package func activity(id: String) async throws(PushStoreError) -> ActivityRecord? {
        try Validation.identifier(id, field: "activityId")
        return try await run("activity", readOnly: true) { session throws(PushStoreError) in
            try await Self.fetchActivity(session, id: id)
        }
    }

    package func activities(ids: [String], contentStates: Bool) async throws(PushStoreError) -> [ActivityRecord] {
        for (index, id) in ids.enumerated() { try Validation.identifier(id, field: "ids[\(index)]") }
        guard !ids.isEmpty else { return [] }
        let values = ids.map { SQLValue.text($0) }
        let columns = contentStates ? "*" : RowDecoding.activityColumnsWithoutContentState
        // Up to 500 ids are one statement, which needs no transaction.
        return try await run("activitiesById", readOnly: ids.count <= 500) { session throws(PushStoreError) in
            var records = [ActivityRecord]()
            records.reserveCapacity(values.count)
            for row in try await Self.queryIn(
                session, "SELECT \(columns) FROM activities WHERE activity_id IN ({IN})", values: values, chunk: 500)
            {
                records.append(try RowDecoding.activity(row))
            }
            return records
        }
    }

    private func activities(_ operation: String, _ sql: String, _ binds: [SQLValue]) async throws(PushStoreError)
        -> [ActivityRecord]
    {
        try await run(operation, readOnly: true) { session throws(PushStoreError) in
            try await session.query(sql, binds) { row throws(PushStoreError) in try RowDecoding.activity(row) }
        }
    }

    package func activities(inGroup group: String) async throws(PushStoreError) -> [ActivityRecord] {
        try Validation.identifier(group, field: "group")
        return try await activities(
            "activitiesInGroup",
            """
            SELECT a.* FROM activities a JOIN activity_groups g ON g.activity_id = a.activity_id
            WHERE g.group_name = ? ORDER BY a.activity_id
            """, [.text(group)])
    }

    package func activeActivities(olderThan date: Date) async throws(PushStoreError) -> [ActivityRecord] {
        try await activities(
            "activeActivities",
            "SELECT * FROM activities WHERE state = 'active' AND started_at <= ? ORDER BY started_at, activity_id",
            [.date(date)])
    }

    package func forgetEnded(before date: Date) async throws(PushStoreError) -> Int {
        try await run("forgetEnded") { session throws(PushStoreError) in
            let rows = try await session.query(
                """
                SELECT activity_id FROM activities
                WHERE state <> 'active' AND COALESCE(ended_at, updated_at) < ?
                    AND (dismissal_date IS NULL OR dismissal_date < ?)
                """,
                [.date(date), .date(date)])
            var ids = [SQLValue]()
            for row in rows { ids.append(.text(try row.string("activity_id"))) }
            guard !ids.isEmpty else { return 0 }
            for statement in [
                "DELETE FROM activity_groups WHERE activity_id IN ({IN})",
                "DELETE FROM retired_tokens WHERE activity_id IN ({IN})",
                "DELETE FROM high_priority_pushes WHERE activity_id IN ({IN})",
                // The console's record of the test pushes it sent goes with their history.
                """
                DELETE FROM console_pushes WHERE push_id IN
                    (SELECT push_id FROM deliveries WHERE target_kind = 'activity' AND target_id IN ({IN}))
                """,
                "DELETE FROM deliveries WHERE target_kind = 'activity' AND target_id IN ({IN})",
                "DELETE FROM activity_renewals WHERE activity_id IN ({IN})",
                "DELETE FROM activity_refusals WHERE activity_id IN ({IN})",
                "DELETE FROM activities WHERE activity_id IN ({IN})",
            ] {
                _ = try await Self.queryIn(session, statement, values: ids)
            }
            return ids.count
        }
    }
}
