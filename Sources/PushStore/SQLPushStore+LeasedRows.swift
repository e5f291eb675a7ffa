import Foundation

/// Store operations shared by the leased queues (``LeasedRows``).
extension SQLPushStore {
    /// Gives back every row of `rows` that `owner` holds; returns how many.
    func releaseAll(_ rows: LeasedRows, operation: String, owner: String) async throws(PushStoreError) -> Int {
        try Validation.identifier(owner, field: "owner")
        return try await run(operation) { session throws(PushStoreError) in try await rows.release(session, owner: owner) }
    }

    /// Gives a row `owner` holds back to its queue with back-off (an outbox push, a webhook event): due
    /// at `next`, with its attempts and last error. Throws `notFound` when it is gone and `conflict`
    /// when another owner holds it; `kind` and `noun` name it in those errors.
    func rescheduleHeld(
        _ rows: LeasedRows, operation: String, id: UUID, kind: PushStoreRecordKind, noun: String, owner: String, next: Date,
        attempts: Int, lastError: String
    ) async throws(PushStoreError) {
        try Validation.identifier(owner, field: "owner")
        try Validation.text(lastError, field: "lastError", max: 1000)
        guard attempts >= 0 else { throw .invalidInput(field: "attempts", rule: "is \(attempts); must be 0 or more") }
        let dialect = self.dialect
        try await run(operation) { session throws(PushStoreError) in
            _ = try await rows.held(session, dialect: dialect, [.uuid(id)], owner: owner, kind: kind, noun: noun, id: id.uuidString.lowercased())
            try await rows.retry(session, [.uuid(id)], next: next, attempts: attempts, lastError: lastError)
        }
    }
}
