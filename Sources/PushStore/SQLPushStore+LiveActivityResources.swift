import Foundation
import LiveActivity

/// The ``LiveActivityResourceStore`` operations.
extension SQLPushStore {
    package func liveActivityResource(userID: String, key: String) async throws(PushStoreError) -> LiveActivityResourceRecord? {
        try Self.checkResourceIDs(userID, key)
        return try await run("liveActivityResource", readOnly: true) { session throws(PushStoreError) in
            try await session.first(
                "SELECT * FROM live_activity_resources WHERE user_id = ? AND resource_key = ?", [.text(userID), .text(key)]
            ).map(Self.resource)
        }
    }

    package func saveLiveActivityResource(
        _ record: LiveActivityResourceRecord, expectedVersion: Int?, event: LiveActivityResourceEvent, facts: [WebhookFact],
        journal: WebhookJournal?
    ) async throws(PushStoreError) -> LiveActivityResourceRecord? {
        try Self.checkResourceIDs(record.userID, record.key)
        try Validation.identifier(record.attributesType, field: "attributesType")
        let dialect = self.dialect
        return try await run("saveLiveActivityResource") { session throws(PushStoreError) in
            var saved = record
            saved.version = (expectedVersion ?? 0) + 1
            let values = Self.resourceValues(saved)
            if expectedVersion == nil {
                let inserted = try await session.query(
                    """
                    INSERT INTO live_activity_resources (\(Self.resourceColumns.joined(separator: ", ")))
                    VALUES (\(Array(repeating: "?", count: Self.resourceColumns.count).joined(separator: ", ")))
                    ON CONFLICT (user_id, resource_key) DO NOTHING RETURNING version
                    """, values)
                guard !inserted.isEmpty else { return nil }
            } else {
                let assignments = Self.resourceColumns.dropFirst(2).map { "\($0) = ?" }.joined(separator: ", ")
                let updated = try await session.query(
                    "UPDATE live_activity_resources SET \(assignments) WHERE user_id = ? AND resource_key = ? AND version = ? RETURNING version",
                    Array(values.dropFirst(2)) + [.text(record.userID), .text(record.key), .int(expectedVersion)])
                guard !updated.isEmpty else { return nil }
            }
            try await session.execute(
                """
                INSERT INTO live_activity_resource_events (user_id, resource_key, version, outcome, at, reason, activity_id, content_state)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(record.userID), .text(record.key), .int(saved.version), .text(event.outcome), .date(event.at), .text(event.reason),
                    .text(event.activityID), .text(event.contentState.map(Self.jsonText)),
                ])
            try await session.execute(
                "DELETE FROM live_activity_resource_events WHERE user_id = ? AND resource_key = ? AND version <= ?",
                [.text(record.userID), .text(record.key), .int(saved.version - Self.historyLimit)])
            try await Self.record(facts, in: journal, session: session, dialect: dialect)
            return saved
        }
    }

    package func waitingLiveActivityResources(userID: String, attributesType: String) async throws(PushStoreError)
        -> [LiveActivityResourceRecord]
    {
        try Validation.identifier(userID, field: "userId")
        return try await run("waitingLiveActivityResources", readOnly: true) { session throws(PushStoreError) in
            try await session.query(
                """
                SELECT * FROM live_activity_resources WHERE user_id = ? AND attributes_type = ? AND state IN ('starting', 'ending')
                ORDER BY started_at, resource_key
                """, [.text(userID), .text(attributesType)]
            ) { row throws(PushStoreError) in try Self.resource(row) }
        }
    }

    package func liveActivityResourceHistory(userID: String, key: String, limit: Int) async throws(PushStoreError) -> [LiveActivityResourceEvent] {
        try Self.checkResourceIDs(userID, key)
        return try await run("liveActivityResourceHistory", readOnly: true) { session throws(PushStoreError) in
            try await session.query(
                "SELECT * FROM live_activity_resource_events WHERE user_id = ? AND resource_key = ? ORDER BY version DESC LIMIT ?",
                [.text(userID), .text(key), .int(max(0, limit))]
            ) { row throws(PushStoreError) in
                LiveActivityResourceEvent(
                    outcome: try row.string("outcome"), at: try row.date("at"), reason: try row.optionalString("reason"),
                    activityID: try row.optionalString("activity_id"),
                    contentState: try row.optionalString("content_state").map { (text) throws(PushStoreError) in try Self.json(text, "content_state")
                    })
            }
        }
    }

    // MARK: Rows

    private static let resourceColumns = [
        "user_id", "resource_key", "attributes_type", "attributes_json", "wanted_json", "state", "activity_id", "activity_ids", "pending",
        "reason", "renew_before", "start_token_ids", "started_at", "final_content_state", "dismissal_date", "version", "created_at",
        "updated_at",
    ]

    private static func resourceValues(_ record: LiveActivityResourceRecord) -> [SQLValue] {
        [
            .text(record.userID), .text(record.key), .text(record.attributesType), .text(jsonText(record.attributes)),
            .text(jsonText(record.wanted)), .text(record.state.rawValue), .text(record.activityID),
            .text(jsonText(.array(record.activityIDs.map { .string($0) }))), .bool(record.pending), .text(record.reason),
            record.renewBefore.map { .real($0) } ?? .null, .text(jsonText(.array(record.startTokenIDs.map { .string($0.lowercased) }))),
            .date(record.startedAt), .text(record.finalContentState.map(jsonText)), .date(record.dismissalDate), .int(record.version),
            .date(record.createdAt), .date(record.updatedAt),
        ]
    }

    private static func checkResourceIDs(_ userID: String, _ key: String) throws(PushStoreError) {
        try Validation.identifier(userID, field: "userId")
        try Validation.identifier(key, field: "key")
    }

    private static func jsonText(_ json: JSONValue) -> String { String(decoding: json.serialized(), as: UTF8.self) }

    private static func json(_ text: String, _ column: String) throws(PushStoreError) -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            throw .database(detail: "column '\(column)' is not JSON: \(error)")
        }
    }

    static func resource(_ row: SQLRow) throws(PushStoreError) -> LiveActivityResourceRecord {
        var record = LiveActivityResourceRecord(
            userID: try row.string("user_id"), key: try row.string("resource_key"), attributesType: try row.string("attributes_type"),
            attributes: try json(try row.string("attributes_json"), "attributes_json"),
            wanted: try json(try row.string("wanted_json"), "wanted_json"),
            state: try row.enumValue("state", as: LiveActivityResourceState.self), createdAt: try row.date("created_at"))
        record.activityID = try row.optionalString("activity_id")
        record.activityIDs = (try json(try row.string("activity_ids"), "activity_ids").arrayValue ?? []).compactMap(\.stringValue)
        record.pending = try row.int("pending") != 0
        record.reason = try row.optionalString("reason")
        if case .real(let seconds) = try row.value("renew_before") { record.renewBefore = seconds }
        if case .integer(let seconds) = try row.value("renew_before") { record.renewBefore = TimeInterval(seconds) }
        record.startTokenIDs = (try json(try row.string("start_token_ids"), "start_token_ids").arrayValue ?? []).compactMap {
            $0.stringValue.flatMap(UUID.init(uuidString:))
        }
        record.startedAt = try row.optionalDate("started_at")
        record.finalContentState = try row.optionalString("final_content_state").map { (text) throws(PushStoreError) in
            try json(text, "final_content_state")
        }
        record.dismissalDate = try row.optionalDate("dismissal_date")
        record.version = try row.int("version")
        record.updatedAt = try row.date("updated_at")
        return record
    }
}
