import APNsCore
import Foundation

/// The ``PushToStartStore`` operations.
extension SQLPushStore {
    package func upsertPushToStartToken(_ registration: PushToStartRegistration) async throws(PushStoreError)
        -> PushToStartTokenRecord
    {
        try Validation.pushToStart(registration)
        let dialect = self.dialect
        return try await run("upsertPushToStartToken") { session throws(PushStoreError) in
            // One user holds a token value at a time, as a push-to-start token or as an activity's update
            // token: checked under a lock on the value (PostgreSQL; SQLite has one writer), so two users
            // storing it at once, as either kind, cannot both pass.
            if let lock = dialect.keyLockStatement {
                try await session.execute(lock, [.text(Self.tokenLockKey(registration.token))])
            }
            if try await session.first(
                "SELECT id FROM push_to_start_tokens WHERE token = ? AND user_id <> ? AND token_state = 'valid'",
                [.text(registration.token.hex), .text(registration.userID)]) != nil
            {
                throw .taken(kind: .pushToStartToken, id: registration.token.shortened)
            }
            if try await session.first(
                "SELECT activity_id FROM activities WHERE push_token = ? AND (user_id IS NULL OR user_id <> ?)",
                [.text(registration.token.hex), .text(registration.userID)]) != nil
            {
                throw .taken(kind: .pushToStartToken, id: registration.token.shortened)
            }
            let rows = try await session.query(
                """
                INSERT INTO push_to_start_tokens (id, user_id, device_id, bundle_id, attributes_type, environment,
                    token, token_state, updated_at, token_valid_since, source, refreshed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'valid', ?, ?, ?, ?)
                ON CONFLICT (user_id, device_id, bundle_id, attributes_type) DO UPDATE SET
                    environment = excluded.environment, token = excluded.token, token_state = 'valid',
                    token_invalid_reason = NULL, token_invalidated_at = NULL, updated_at = excluded.updated_at,
                    token_valid_since = excluded.token_valid_since, source = excluded.source,
                    refreshed_at = excluded.refreshed_at
                RETURNING *
                """,
                [
                    .uuid(UUID()), .text(registration.userID), .text(registration.deviceID),
                    .text(registration.bundleID), .text(registration.attributesType),
                    .text(registration.environment.rawValue), .text(registration.token.hex), .date(registration.at),
                    .date(registration.at), .text(registration.source?.rawValue), .date(registration.at),
                ])
            guard let row = rows.first else { throw .database(detail: "upsert of a push-to-start token returned no row") }
            return try RowDecoding.pushToStart(row)
        }
    }

    /// The key of the lock on a token value, shared by both kinds of token.
    static func tokenLockKey(_ token: DeviceToken) -> String { "token:" + token.hex }

    package func releasePushToStartTokens(userID: String, deviceID: String?) async throws(PushStoreError) -> Int {
        try Validation.identifier(userID, field: "userId")
        if let deviceID { try Validation.identifier(deviceID, field: "deviceId") }
        return try await run("releasePushToStartTokens") { session throws(PushStoreError) in
            try await Self.deletePushToStartTokens(session, userID: userID, deviceID: deviceID)
        }
    }

    /// ``releasePushToStartTokens(userID:deviceID:)`` inside a transaction (a sign-out's too).
    static func deletePushToStartTokens(_ session: any SQLSession, userID: String, deviceID: String?) async throws(PushStoreError)
        -> Int
    {
        let deleted =
            if let deviceID {
                try await session.query(
                    "DELETE FROM push_to_start_tokens WHERE user_id = ? AND device_id = ? RETURNING id", [.text(userID), .text(deviceID)])
            } else {
                try await session.query("DELETE FROM push_to_start_tokens WHERE user_id = ? RETURNING id", [.text(userID)])
            }
        // Their budget's reservations go with them (nothing else prunes a token that is never sent to again).
        var ids: [SQLValue] = []
        for row in deleted { ids.append(.text(try row.string("id"))) }
        _ = try await queryIn(session, "DELETE FROM push_to_start_reservations WHERE token_id IN ({IN})", values: ids)
        return deleted.count
    }

    package func pushToStartTokens(forUser userID: String, attributesType: String) async throws(PushStoreError)
        -> [PushToStartTokenRecord]
    {
        try Validation.identifier(userID, field: "userId")
        try Validation.identifier(attributesType, field: "attributesType", max: 255)
        return try await run("pushToStartTokens", readOnly: true) { session throws(PushStoreError) in
            var records = [PushToStartTokenRecord]()
            for row in try await session.query(
                """
                SELECT * FROM push_to_start_tokens WHERE user_id = ? AND attributes_type = ?
                ORDER BY device_id, bundle_id
                """, [.text(userID), .text(attributesType)])
            {
                records.append(try RowDecoding.pushToStart(row))
            }
            return records
        }
    }

    package func pushToStartToken(id: UUID) async throws(PushStoreError) -> PushToStartTokenRecord? {
        try await run("pushToStartToken", readOnly: true) { session throws(PushStoreError) in
            guard let row = try await session.first("SELECT * FROM push_to_start_tokens WHERE id = ?", [.uuid(id)])
            else { return nil }
            return try RowDecoding.pushToStart(row)
        }
    }

    package func markPushToStartTokenInvalid(token: DeviceToken, reason: String, at: Date, journal: WebhookJournal?)
        async throws(PushStoreError) -> [PushToStartTokenRecord]
    {
        try Validation.text(reason, field: "reason", max: 200)
        let dialect = self.dialect
        let invalidation = TokenInvalidation(token: token, reason: reason, at: at)
        return try await run("markPushToStartTokenInvalid") { session throws(PushStoreError) in
            try await Self.invalidate(session, [invalidation], journal: journal, dialect: dialect).pushToStartTokens
        }
    }
}
