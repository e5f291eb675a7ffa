import Foundation

/// The ``PushToStartBudget`` operations: a start is counted once by its push id, whether it is reserved,
/// queued in the outbox or in the history.
extension SQLPushStore {
    package func reservePushToStarts(_ requests: [PushToStartReservation], budget: Int, since: Date, at: Date) async throws(PushStoreError)
        -> Set<UUID>
    {
        guard budget >= 0 else { throw .invalidInput(field: "budget", rule: "is \(budget); a budget is 0 or more starts") }
        try Validation.distinct(requests.map(\.pushID.lowercased), field: "pushId")
        guard !requests.isEmpty else { return [] }
        let dialect = self.dialect
        // Sorted: two senders lock their overlapping tokens in the same order.
        let tokens = Set(requests.map(\.tokenID.lowercased)).sorted().map { SQLValue.text($0) }
        return try await run("reservePushToStarts", commit: .deferred) { session throws(PushStoreError) -> Set<UUID> in
            if dialect.keyLockStatement != nil {
                // PostgreSQL: the tokens' rows locked, in order, in one statement, until the reservations
                // commit (SQLite has one writer at a time). A sender to the same token waits here, then
                // counts what this one recorded.
                _ = try await Self.queryIn(
                    session, "SELECT id FROM push_to_start_tokens WHERE id IN ({IN}) ORDER BY id\(dialect.forUpdateClause)", values: tokens,
                    chunk: 20_000)
            }
            _ = try await Self.queryIn(
                session, "DELETE FROM push_to_start_reservations WHERE reserved_at < ? AND token_id IN ({IN})",
                leading: [.date(since)], values: tokens)
            var counted: [String: Set<String>] = [:]
            for sql in [
                "SELECT token_id AS target_id, push_id FROM push_to_start_reservations WHERE reserved_at >= ? AND token_id IN ({IN})",
                "SELECT target_id, push_id FROM outbox WHERE target_kind = 'pushToStartToken' AND kind = 'start' AND accepted_at >= ? AND target_id IN ({IN})",
                "SELECT target_id, push_id FROM deliveries WHERE target_kind = 'pushToStartToken' AND kind = 'start' AND accepted_at >= ? AND target_id IN ({IN})",
            ] {
                for row in try await Self.queryIn(session, sql, leading: [.date(since)], values: tokens) {
                    counted[try row.string("target_id"), default: []].insert(try row.string("push_id"))
                }
            }
            var granted = Set<UUID>()
            var reserved: [PushToStartReservation] = []
            for request in requests {
                let token = request.tokenID.lowercased
                let push = request.pushID.lowercased
                if counted[token]?.contains(push) == true {
                    granted.insert(request.pushID)
                } else if counted[token, default: []].count < budget {
                    counted[token, default: []].insert(push)
                    granted.insert(request.pushID)
                    reserved.append(request)
                }
            }
            try await Self.insertRows(
                session, dialect: dialect, table: "push_to_start_reservations", columns: ["push_id", "token_id", "reserved_at"], items: reserved,
                suffix: " ON CONFLICT (push_id) DO UPDATE SET token_id = excluded.token_id, reserved_at = excluded.reserved_at"
            ) { [.uuid($0.pushID), .uuid($0.tokenID), .date(at)] }
            return granted
        }
    }

    package func releasePushToStarts(pushIDs: [UUID]) async throws(PushStoreError) {
        guard !pushIDs.isEmpty else { return }
        let values = pushIDs.map { SQLValue.uuid($0) }
        try await run("releasePushToStarts", commit: .deferred) { session throws(PushStoreError) in
            _ = try await Self.queryIn(session, "DELETE FROM push_to_start_reservations WHERE push_id IN ({IN})", values: values)
        }
    }
}
