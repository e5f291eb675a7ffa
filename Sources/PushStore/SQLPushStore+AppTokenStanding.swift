import Foundation

/// The ``AppTokenStandingStore`` operations.
extension SQLPushStore {
    package func appTokenStanding(subject: String, keyID: UUID?) async throws(PushStoreError) -> AppTokenStanding {
        try Validation.identifier(subject, field: "subject")
        return try await run("appTokenStanding", readOnly: true) { session throws(PushStoreError) in
            // One round trip for both: this runs on every request made with an app token.
            guard
                let row = try await session.first(
                    """
                    SELECT (SELECT generation FROM app_token_generations WHERE subject = ?) AS generation,
                        (SELECT CASE WHEN revoked_at IS NULL THEN 1 ELSE 0 END FROM api_keys WHERE id = ?) AS key_active
                    """,
                    [.text(subject), .text(keyID?.lowercased ?? "")])
            else { throw .database(detail: "the app-token standing query returned no row") }
            let generation = try row.optionalInt("generation") ?? 0
            let keyActive: Bool? = keyID == nil ? nil : (try row.optionalInt("key_active") ?? 0) != 0
            return AppTokenStanding(generation: generation, keyActive: keyActive)
        }
    }

    package func withdrawAppTokens(subject: String, at: Date) async throws(PushStoreError) -> AppTokenWithdrawal {
        try Validation.identifier(subject, field: "subject")
        return try await run("withdrawAppTokens") { session throws(PushStoreError) in
            let generation = try await Self.raiseGeneration(session, subject: subject, at: at)
            let released = try await Self.deletePushToStartTokens(session, userID: subject, deviceID: nil)
            return AppTokenWithdrawal(generation: generation, releasedPushToStartTokens: released)
        }
    }

    package func retireAppTokens(subject: String, at: Date) async throws(PushStoreError) -> Int {
        try Validation.identifier(subject, field: "subject")
        return try await run("retireAppTokens") { session throws(PushStoreError) in
            try await Self.raiseGeneration(session, subject: subject, at: at)
        }
    }

    /// Raises the subject's app-token generation (from 0 to 1 the first time); returns the new one.
    private static func raiseGeneration(_ session: any SQLSession, subject: String, at: Date) async throws(PushStoreError) -> Int {
        let rows = try await session.query(
            """
            INSERT INTO app_token_generations (subject, generation, withdrawn_at) VALUES (?, 1, ?)
            ON CONFLICT (subject) DO UPDATE SET generation = app_token_generations.generation + 1,
                withdrawn_at = excluded.withdrawn_at
            RETURNING generation
            """,
            [.text(subject), .date(at)])
        guard let row = rows.first else { throw .database(detail: "raising the app-token generation returned no row") }
        return try row.int("generation")
    }
}
