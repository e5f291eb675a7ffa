import Foundation

/// The ``IdempotencyStore`` operations.
extension SQLPushStore {
    package func reserveIdempotencyKey(
        owner: String, key: String, requestHash: String, at: Date, keepFor: TimeInterval, takeOverAfter: TimeInterval
    ) async throws(PushStoreError) -> IdempotencyClaim {
        try Validation.identifier(owner, field: "owner", max: 200)
        try Validation.identifier(key, field: "key", max: 255)
        let hash = try Validation.sha256Hex(requestHash, field: "requestHash")
        let dialect = self.dialect
        return try await run("reserveIdempotencyKey") { session throws(PushStoreError) -> IdempotencyClaim in
            let binds: [SQLValue] = [.text(owner), .text(key)]
            // An expired record frees its key; then the first of concurrent reservations inserts.
            try await session.execute(
                "DELETE FROM idempotency_keys WHERE owner = ? AND idempotency_key = ? AND reserved_at < ?",
                binds + [.date(at.addingTimeInterval(-keepFor))])
            let inserted = try await session.query(
                """
                INSERT INTO idempotency_keys (owner, idempotency_key, request_hash, reserved_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (owner, idempotency_key) DO NOTHING RETURNING owner
                """, binds + [.text(hash), .date(at)])
            if !inserted.isEmpty { return .reserved }
            guard
                let row = try await session.first(
                    "SELECT * FROM idempotency_keys WHERE owner = ? AND idempotency_key = ?\(dialect.forUpdateClause)", binds)
            else { throw .conflict(detail: "the idempotency key changed hands during the reservation; retry") }
            let record = try RowDecoding.idempotencyRecord(row)
            if record.requestHash != hash { return .mismatch(record) }
            if record.status != nil { return .completed(record) }
            guard record.reservedAt < at.addingTimeInterval(-takeOverAfter) else { return .inProgress(record) }
            try await session.execute(
                "UPDATE idempotency_keys SET reserved_at = ? WHERE owner = ? AND idempotency_key = ?",
                [.date(at)] + binds)
            return .reserved
        }
    }

    package func completeIdempotencyKey(owner: String, key: String, status: Int, responseBody: Data, at: Date)
        async throws(PushStoreError)
    {
        guard (100...599).contains(status) else {
            throw .invalidInput(field: "status", rule: "is \(status); an HTTP status is 100 to 599")
        }
        try await run("completeIdempotencyKey") { session throws(PushStoreError) in
            let rows = try await session.query(
                """
                UPDATE idempotency_keys SET status = ?, response_body = ?, completed_at = ?
                WHERE owner = ? AND idempotency_key = ? RETURNING owner
                """, [.int(status), .blob(responseBody), .date(at), .text(owner), .text(key)])
            if rows.isEmpty { throw .notFound(kind: .idempotencyKey, id: key) }
        }
    }

    package func releaseIdempotencyKey(owner: String, key: String) async throws(PushStoreError) {
        try await run("releaseIdempotencyKey") { session throws(PushStoreError) in
            try await session.execute(
                "DELETE FROM idempotency_keys WHERE owner = ? AND idempotency_key = ? AND status IS NULL",
                [.text(owner), .text(key)])
        }
    }

    package func forgetIdempotencyKeys(before date: Date) async throws(PushStoreError) -> Int {
        try await run("forgetIdempotencyKeys") { session throws(PushStoreError) in
            try await session.query(
                "DELETE FROM idempotency_keys WHERE reserved_at < ? RETURNING owner", [.date(date)]
            ).count
        }
    }
}
