import Foundation

extension SQLStoreCore {
    func deliveries(activityId: String, limit: Int) async throws(PushStoreError) -> [DeliveryRecord] {
        try Validation.identifier(activityId, field: "activityId")
        guard (1...10_000).contains(limit) else {
            throw .invalidInput(field: "limit", rule: "is \(limit); ask for 1 to 10000 records")
        }
        return try await run("deliveries", readOnly: true) { session throws(PushStoreError) in
            var records = [DeliveryRecord]()
            for row in try await session.query(
                """
                SELECT * FROM deliveries WHERE target_kind = 'activity' AND target_id = ?
                ORDER BY accepted_at DESC, recorded_at DESC, push_id DESC LIMIT ?
                """, [.text(activityId), .int(limit)])
            {
                records.append(try RowDecoding.delivery(row))
            }
            return records
        }
    }

    /// The window of the priority budget.
    static let budgetWindow: TimeInterval = 3600

    func recordHighPriority(activityId: String, at: Date) async throws(PushStoreError) {
        try Validation.identifier(activityId, field: "activityId")
        try await run("recordHighPriority") { session throws(PushStoreError) in
            try await session.execute(
                "INSERT INTO high_priority_pushes (activity_id, at) VALUES (?, ?)", [.text(activityId), .date(at)])
            try await session.execute(
                "DELETE FROM high_priority_pushes WHERE activity_id = ? AND at < ?",
                [.text(activityId), .date(at.addingTimeInterval(-Self.budgetWindow))])
        }
    }

    func highPriorityCount(activityId: String, since: Date) async throws(PushStoreError) -> Int {
        try Validation.identifier(activityId, field: "activityId")
        return try await run("highPriorityCount", readOnly: true) { session throws(PushStoreError) in
            try await session.first(
                "SELECT COUNT(*) AS n FROM high_priority_pushes WHERE activity_id = ? AND at >= ?",
                [.text(activityId), .date(since)]
            )?.int("n") ?? 0
        }
    }

    func consumeHighPriority(activityId: String, at: Date, limit: Int) async throws(PushStoreError) -> BudgetDecision {
        let decisions = try await consumeHighPriority([(activityId: activityId, limit: limit)], at: at)
        guard let decision = decisions[activityId] else { throw .unavailable(detail: "no budget decision was made") }
        return decision
    }

    /// One transaction for all the activities (a group send): one commit instead of one per activity.
    /// Ids are handled in sorted order, so two processes deciding for overlapping groups take their
    /// per-activity locks in the same order.
    func consumeHighPriority(_ requests: [(activityId: String, limit: Int)], at: Date) async throws(PushStoreError)
        -> [String: BudgetDecision]
    {
        for request in requests {
            try Validation.identifier(request.activityId, field: "activityId")
            guard request.limit >= 0 else {
                throw .invalidInput(field: "limit", rule: "is \(request.limit); a budget is 0 or more pushes")
            }
        }
        try Validation.distinct(requests.map(\.activityId), field: "activityId")
        guard !requests.isEmpty else { return [:] }
        let sorted = requests.sorted { $0.activityId < $1.activityId }
        let dialect = self.dialect
        let windowStart = SQLValue.date(at.addingTimeInterval(-Self.budgetWindow))
        return try await run("consumeHighPriority") { session throws(PushStoreError) in
            var decisions: [String: BudgetDecision] = [:]
            for (activityId, limit) in sorted {
                if let lock = dialect.keyLockStatement {
                    // Two processes deciding for the same activity take turns.
                    try await session.execute(lock, [.text("budget:" + activityId)])
                }
                try await session.execute(
                    "DELETE FROM high_priority_pushes WHERE activity_id = ? AND at < ?", [.text(activityId), windowStart])
                let used = try await session.first(
                    "SELECT COUNT(*) AS n FROM high_priority_pushes WHERE activity_id = ? AND at > ?",
                    [.text(activityId), windowStart]
                )?.int("n") ?? 0
                guard used < limit else {
                    decisions[activityId] = BudgetDecision(granted: false, usedInWindow: used, limit: limit)
                    continue
                }
                try await session.execute(
                    "INSERT INTO high_priority_pushes (activity_id, at) VALUES (?, ?)", [.text(activityId), .date(at)])
                decisions[activityId] = BudgetDecision(granted: true, usedInWindow: used + 1, limit: limit)
            }
            return decisions
        }
    }

    func createApiKey(name: String, scope: ApiKeyScope, sha256Hash: String, at: Date) async throws(PushStoreError)
        -> ApiKeyRecord
    {
        try Validation.identifier(name, field: "name", max: 100)
        let hash = try Validation.sha256Hex(sha256Hash, field: "sha256Hash")
        let record = ApiKeyRecord(id: UUID(), name: name, scope: scope, sha256Hash: hash, createdAt: at, revokedAt: nil)
        return try await run("createApiKey") { session throws(PushStoreError) in
            if try await session.first("SELECT id FROM api_keys WHERE sha256_hash = ?", [.text(hash)]) != nil {
                throw .conflict(detail: "an API key with this hash is already stored")
            }
            try await session.execute(
                "INSERT INTO api_keys (id, name, scope, sha256_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                [.uuid(record.id), .text(name), .text(scope.rawValue), .text(hash), .date(at)])
            return record
        }
    }

    func apiKey(byHash sha256Hash: String) async throws(PushStoreError) -> ApiKeyRecord? {
        let hash = try Validation.sha256Hex(sha256Hash, field: "sha256Hash")
        return try await run("apiKeyByHash", readOnly: true) { session throws(PushStoreError) in
            guard let row = try await session.first("SELECT * FROM api_keys WHERE sha256_hash = ?", [.text(hash)])
            else { return nil }
            return try RowDecoding.apiKey(row)
        }
    }

    func apiKeys() async throws(PushStoreError) -> [ApiKeyRecord] {
        try await run("apiKeys", readOnly: true) { session throws(PushStoreError) in
            var records = [ApiKeyRecord]()
            for row in try await session.query("SELECT * FROM api_keys ORDER BY created_at, id") {
                records.append(try RowDecoding.apiKey(row))
            }
            return records
        }
    }

    func revokeApiKey(id: UUID, at: Date) async throws(PushStoreError) -> ApiKeyRecord {
        try await run("revokeApiKey") { session throws(PushStoreError) in
            let rows = try await session.query(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING *",
                [.date(at), .uuid(id)])
            guard let row = rows.first else { throw .notFound(kind: .apiKey, id: id.uuidString.lowercased()) }
            return try RowDecoding.apiKey(row)
        }
    }
}
