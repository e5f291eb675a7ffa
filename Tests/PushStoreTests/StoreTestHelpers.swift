import APNsCore
import Foundation
import Testing

@testable import PushStore

/// Reads and conveniences only the tests need: reads straight from the tables of either store, and
/// single-item forms of the stores' batch operations.
extension PushStore {
    /// The SQL store underneath, for reading its tables.
    private var sql: SQLPushStore {
        get throws { try #require(self as? SQLPushStore, "the conformance tests run on the SQL stores") }
    }

    /// The one number a `SELECT COUNT(*) AS n ...` answers.
    private func count(_ statement: String, _ binds: [SQLValue] = []) async throws -> Int {
        try await sql.backend.read { session throws(PushStoreError) in
            try await session.first(statement, binds)?.int("n") ?? 0
        }
    }

    /// How many activities are stored.
    func activityCount() async throws -> Int {
        try await count("SELECT COUNT(*) AS n FROM activities")
    }

    /// The retirement record of a token an activity no longer uses, if it is one.
    func retiredToken(_ token: DeviceToken) async throws -> RetiredTokenRecord? {
        try await sql.backend.read { session throws(PushStoreError) in
            guard
                let row = try await session.first(
                    "SELECT token, activity_id, retired_at FROM retired_tokens WHERE token = ?", [.text(token.hex)])
            else { return nil }
            return RetiredTokenRecord(
                token: try RowDecoding.token(row, "token"), activityID: try row.string("activity_id"),
                retiredAt: try row.date("retired_at"))
        }
    }

    /// Priority-10 pushes counted for an activity at or after `since`.
    func highPriorityCount(activityID: String, since: Date) async throws -> Int {
        try await count(
            "SELECT COUNT(*) AS n FROM high_priority_pushes WHERE activity_id = ? AND at >= ?",
            [.text(activityID), .date(since)])
    }

    /// ``PriorityBudget/consumeHighPriority(_:at:)`` for one activity.
    func consumeHighPriority(activityID: String, at: Date, limit: Int) async throws -> BudgetDecision {
        let decisions = try await consumeHighPriority([(activityID: activityID, limit: limit)], at: at)
        return try #require(decisions[activityID])
    }

    /// ``OutboxStore/complete(owner:results:at:)`` for one push `owner` holds: its delivery record.
    /// A push it does not hold fails with `conflict`.
    @discardableResult
    func complete(_ result: DeliveryResult, owner: String, at: Date) async throws -> DeliveryRecord {
        let report = try await complete(owner: owner, results: [result], at: at)
        guard let record = report.records.first else {
            throw PushStoreError.conflict(detail: "push \(result.pushID) is not held by '\(owner)'")
        }
        return record
    }
}

/// A token an activity used before a rotation or re-registration, as the `retired_tokens` table holds it.
struct RetiredTokenRecord: Sendable, Hashable {
    var token: DeviceToken
    var activityID: String
    var retiredAt: Date
}
