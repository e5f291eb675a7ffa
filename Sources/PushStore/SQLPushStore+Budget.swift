import Foundation

/// The ``PriorityBudget`` operations.
extension SQLPushStore {
    /// The window of the priority budget.
    static let budgetWindow: TimeInterval = 3600

    /// One transaction for all the activities (a group send): one commit instead of one per activity.
    /// Ids are handled in sorted order, so two processes deciding for overlapping groups take their
    /// per-activity locks in the same order.
    package func consumeHighPriority(_ requests: [(activityID: String, limit: Int)], at: Date) async throws(PushStoreError)
        -> [String: BudgetDecision]
    {
        try Self.validateBudget(requests)
        guard !requests.isEmpty else { return [:] }
        let dialect = self.dialect
        return try await run("consumeHighPriority") { session throws(PushStoreError) in
            try await Self.consumeHighPriority(session, requests, at: at, dialect: dialect)
        }
    }

    static func validateBudget(_ requests: [(activityID: String, limit: Int)]) throws(PushStoreError) {
        for request in requests {
            try Validation.identifier(request.activityID, field: "activityId")
            guard request.limit >= 0 else {
                throw .invalidInput(field: "limit", rule: "is \(request.limit); a budget is 0 or more pushes")
            }
        }
        try Validation.distinct(requests.map(\.activityID), field: "activityId")
    }

    /// ``consumeHighPriority(_:at:)`` inside a transaction, the requests already validated.
    static func consumeHighPriority(
        _ session: any SQLSession, _ requests: [(activityID: String, limit: Int)], at: Date, dialect: SQLDialect
    ) async throws(PushStoreError) -> [String: BudgetDecision] {
        let windowStart = SQLValue.date(at.addingTimeInterval(-budgetWindow))
        var decisions: [String: BudgetDecision] = [:]
        for (activityID, limit) in requests.sorted(by: { $0.activityID < $1.activityID }) {
            if let lock = dialect.keyLockStatement {
                // Two processes deciding for the same activity take turns.
                try await session.execute(lock, [.text("budget:" + activityID)])
            }
            try await session.execute(
                "DELETE FROM high_priority_pushes WHERE activity_id = ? AND at < ?", [.text(activityID), windowStart])
            let used =
                try await session.first(
                    "SELECT COUNT(*) AS n FROM high_priority_pushes WHERE activity_id = ? AND at > ?",
                    [.text(activityID), windowStart]
                )?.int("n") ?? 0
            guard used < limit else {
                decisions[activityID] = BudgetDecision(granted: false, usedInWindow: used, limit: limit)
                continue
            }
            try await session.execute(
                "INSERT INTO high_priority_pushes (activity_id, at) VALUES (?, ?)", [.text(activityID), .date(at)])
            decisions[activityID] = BudgetDecision(granted: true, usedInWindow: used + 1, limit: limit)
        }
        return decisions
    }
}
