import APNsCore
import Foundation

/// ``OutboxStore/settle(owner:_:at:journal:)`` and the token invalidation it shares with the group pages.
extension SQLPushStore {
    package func settle(owner: String, _ settlement: OutboxSettlement, at: Date, journal: WebhookJournal?) async throws(PushStoreError)
        -> SettlementReport
    {
        try Validation.identifier(owner, field: "owner")
        try Validation.batch(settlement.results, field: "results", pushID: \.pushID, Validation.deliveryResult)
        for (index, retry) in settlement.retries.enumerated() {
            try Validation.text(retry.lastError ?? "", field: "retries[\(index)].lastError", max: 1000)
            guard retry.attempts >= 0 else { throw .invalidInput(field: "retries[\(index)].attempts", rule: "must be 0 or more") }
        }
        for (index, invalidation) in settlement.invalidations.enumerated() {
            try Validation.text(invalidation.reason, field: "invalidations[\(index)].reason", max: 200)
        }
        guard !settlement.isEmpty else {
            return SettlementReport(completion: CompletionReport(records: [], notHeld: []), retriesNotHeld: [], invalidated: InvalidatedTokens())
        }
        let dialect = self.dialect
        // An invalidated token is a fact the app cannot learn again: it waits for the disk. The rest is work
        // that is done again, with the same push ids, when its record is lost.
        let commit: SQLCommit = settlement.invalidations.isEmpty ? .deferred : .durable
        return try await run("settle", commit: commit) { session throws(PushStoreError) in
            let completion = try await Self.complete(
                session, owner: owner, results: settlement.results, at: at, dialect: dialect, claimed: settlement.claimed)
            var notHeld = [UUID]()
            for retry in settlement.retries {
                let held = try await LeasedRows.outbox.retry(
                    session, [.uuid(retry.pushID)], next: retry.nextAttemptAt, attempts: retry.attempts, lastError: retry.lastError ?? "",
                    owner: owner)
                if !held { notHeld.append(retry.pushID) }
            }
            let invalidated = try await Self.invalidate(session, settlement.invalidations, journal: journal, dialect: dialect)
            return SettlementReport(completion: completion, retriesNotHeld: notHeld, invalidated: invalidated)
        }
    }

    /// Marks each refused token invalid wherever it is valid: the activity that holds it as its current
    /// token and every push-to-start record of it, unless the app reported it again after the refused push
    /// was sent; stores their `token.invalid` events in `journal`.
    static func invalidate(_ session: any SQLSession, _ invalidations: [TokenInvalidation], journal: WebhookJournal?, dialect: SQLDialect)
        async throws(PushStoreError) -> InvalidatedTokens
    {
        var invalidated = InvalidatedTokens()
        var facts = [WebhookFact]()
        for invalidation in invalidations {
            let (token, reason, at) = (invalidation.token, invalidation.reason, invalidation.at)
            for row in try await session.query(
                """
                UPDATE activities SET token_state = 'invalid', token_invalid_reason = ?, token_invalidated_at = ?,
                    updated_at = ?
                WHERE push_token = ? AND token_state = 'valid'
                    AND (token_valid_since IS NULL OR token_valid_since <= ?) RETURNING *
                """,
                [.text(reason), .date(at), .date(at), .text(token.hex), .date(at)])
            {
                let activity = try RowDecoding.activity(row)
                invalidated.activities.append(activity)
                facts.append(
                    .activityTokenInvalid(activityID: activity.activityID, userID: activity.userID, token: token, reason: reason, at: at))
            }
            var records = [PushToStartTokenRecord]()
            for row in try await session.query(
                """
                UPDATE push_to_start_tokens SET token_state = 'invalid', token_invalid_reason = ?,
                    token_invalidated_at = ?, updated_at = ?
                WHERE token = ? AND token_state = 'valid'
                    AND (token_valid_since IS NULL OR token_valid_since <= ?) RETURNING *
                """, [.text(reason), .date(at), .date(at), .text(token.hex), .date(at)])
            {
                records.append(try RowDecoding.pushToStart(row))
            }
            records.sort { $0.id.uuidString < $1.id.uuidString }
            invalidated.pushToStartTokens += records
            facts += records.map { .pushToStartTokenInvalid(tokenID: $0.id, userID: $0.userID, token: token, reason: reason, at: at) }
        }
        try await record(facts, in: journal, session: session, dialect: dialect)
        return invalidated
    }
}
