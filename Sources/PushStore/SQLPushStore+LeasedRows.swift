import Foundation

/// Store operations shared by the leased queues (``LeasedRows``).
extension SQLPushStore {
    /// Claims up to `limit` due rows of `rows` for `owner`, for `lease` seconds from `now`; returns them
    /// decoded by `decode`, sorted by `inOrder` (an UPDATE … RETURNING has no order of its own). `noun`
    /// names the rows in a `limit` error; `returning`: the claim's RETURNING list (every column by default). For the queues whose rows are whole items (the outbox, the
    /// webhook events); a group page is cut from its send and claimed in ``claimPage(owner:pageSize:now:lease:)``.
    func claimRows<Item: Sendable>(
        _ rows: LeasedRows, operation: String, owner: String, limit: Int, now: Date, lease: TimeInterval, of noun: String,
        returning: String = "*", decode: @escaping @Sendable (SQLRow) throws(PushStoreError) -> Item,
        inOrder: @escaping @Sendable (Item, Item) -> Bool
    ) async throws(PushStoreError) -> [Item] {
        try Validation.claim(owner: owner, limit: limit, lease: lease, of: noun)
        let dialect = self.dialect
        let until = now.addingTimeInterval(lease)
        // A claim lost to a power loss is claimed again: its commit need not wait for the disk. One
        // statement, so no transaction of its own around it.
        return try await run(operation, oneStatement: true, commit: .deferred) { session throws(PushStoreError) in
            let claimed = try await rows.claim(
                session, dialect: dialect, owner: owner, now: now, until: until, limit: limit, returning: returning)
            var items = [Item]()
            items.reserveCapacity(claimed.count)
            for row in claimed { items.append(try decode(row)) }
            return items.sorted(by: inOrder)
        }
    }

    /// Extends `owner`'s claim on the rows of `rows` named by `ids` to `until`; returns how many it still
    /// held.
    func renewRows(_ rows: LeasedRows, operation: String, owner: String, ids: [UUID], until: Date) async throws(PushStoreError) -> Int {
        try Validation.identifier(owner, field: "owner")
        guard !ids.isEmpty else { return 0 }
        return try await run(operation, commit: .deferred) { session throws(PushStoreError) in
            try await rows.renew(session, owner: owner, keys: ids.map { [.uuid($0)] }, until: until)
        }
    }

    /// How many rows `rows` holds, claimed or not.
    func depth(of rows: LeasedRows, operation: String) async throws(PushStoreError) -> Int {
        try await run(operation, readOnly: true) { session throws(PushStoreError) in
            try await session.first("SELECT COUNT(*) AS n FROM \(rows.table)")?.int("n") ?? 0
        }
    }

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
        // Lost to a power loss, the row's claim expires and it is tried again: no need to wait for the disk.
        try await run(operation, commit: .deferred) { session throws(PushStoreError) in
            _ = try await rows.held(session, dialect: dialect, [.uuid(id)], owner: owner, kind: kind, noun: noun, id: id.lowercased)
            try await rows.retry(session, [.uuid(id)], next: next, attempts: attempts, lastError: lastError)
        }
    }
}
