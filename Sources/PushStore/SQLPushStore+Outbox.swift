import Foundation

/// The ``OutboxStore`` operations.
extension SQLPushStore {
    package func enqueue(_ items: [OutboxItem]) async throws(PushStoreError) -> EnqueueResult {
        try Validation.batch(items, field: "items", pushID: \.pushID, Validation.outboxItem)
        guard !items.isEmpty else { return EnqueueResult(accepted: [], coalesced: []) }
        let dialect = self.dialect
        let result = try await run("enqueue") { session throws(PushStoreError) -> EnqueueResult in
            try await Self.enqueue(session, items, dialect: dialect)
        }
        countCoalesced(result)
        return result
    }

    func countCoalesced(_ result: EnqueueResult) {
        if result.coalescedCount > 0 {
            coalescedCounter.increment(by: result.coalescedCount)
        }
    }

    /// ``enqueue(_:)`` inside a transaction, the items already validated.
    static func enqueue(_ session: any SQLSession, _ items: [OutboxItem], dialect: SQLDialect) async throws(PushStoreError)
        -> EnqueueResult
    {
        guard !items.isEmpty else { return EnqueueResult(accepted: [], coalesced: []) }
        // Within the batch, a later routine update to the same activity or channel replaces an earlier one.
        var pending = [OutboxItem]()
        var survivorIndex = [CoalescingTarget: Int]()
        var replacedInBatch = [(item: OutboxItem, by: Int)]()  // `by`: index into pending, fixed up below
        for item in items {
            if let target = CoalescingTarget(item) {
                if let previous = survivorIndex[target] {
                    replacedInBatch.append((pending[previous], previous))
                    pending[previous] = item
                    continue
                }
                survivorIndex[target] = pending.count
            }
            pending.append(item)
        }
        var replacements = replacedInBatch.map { ($0.item, pending[$0.by].pushID) }
        let used = try await queryIn(
            session, "SELECT push_id FROM deliveries WHERE push_id IN ({IN})", values: items.map { SQLValue.uuid($0.pushID) })
        if let row = used.first {
            throw .conflict(detail: "push id \(try row.string("push_id")) was already delivered or coalesced")
        }
        var waiting = [SQLRow]()
        for kind in CoalescingTarget.kinds {
            let targets = survivorIndex.keys.filter { $0.kind == kind }.map(\.id).sorted().map { SQLValue.text($0) }
            waiting += try await queryIn(
                session,
                """
                SELECT * FROM outbox WHERE target_kind = ? AND kind = 'update' AND importance = 'routine'
                    AND claim_owner IS NULL AND target_id IN ({IN}) ORDER BY target_id, push_id\(dialect.forUpdateClause)
                """, leading: [.text(kind)], values: targets)
        }
        var replacedIDs = [SQLValue]()
        for row in waiting {
            let old = try RowDecoding.outboxItem(row)
            guard let target = CoalescingTarget(old), let index = survivorIndex[target] else { continue }
            pending[index].attempts = max(pending[index].attempts, old.attempts)
            pending[index].nextAttemptAt = max(pending[index].nextAttemptAt, old.nextAttemptAt)
            replacements.append((old, pending[index].pushID))
            replacedIDs.append(.uuid(old.pushID))
        }
        _ = try await queryIn(session, "DELETE FROM outbox WHERE push_id IN ({IN})", values: replacedIDs)
        let now = Date()
        let records = replacements.map { old, by in
            DeliveryRecord(
                old, DeliveryResult(pushID: old.pushID, outcome: .coalesced, attempts: old.attempts),
                coalescedInto: by, recordedAt: now)
        }
        try await insertRows(
            session, dialect: dialect, table: "deliveries", columns: RowDecoding.deliveryColumns,
            items: records, values: RowDecoding.deliveryValues)
        try await countRetriedOutcomes(session, records, at: now)
        try await insertRows(
            session, dialect: dialect, table: "outbox", columns: RowDecoding.outboxColumns,
            items: pending, values: RowDecoding.outboxValues)
        return EnqueueResult(
            accepted: items.map(\.pushID),
            coalesced: replacements.map { CoalescedPush(replaced: $0.0.pushID, by: $0.1) })
    }

    package func claim(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> [OutboxItem] {
        try await claimRows(
            .outbox, operation: "claim", owner: owner, limit: limit, now: now, lease: lease, of: "items", decode: RowDecoding.outboxItem,
            inOrder: Self.claimOrder)
    }

    /// The order of a claim's items: due first, then accepted first (UUIDs compare by their bytes, the order
    /// of their lowercase text: the SQL order).
    @Sendable static func claimOrder(_ a: OutboxItem, _ b: OutboxItem) -> Bool {
        (a.nextAttemptAt, a.acceptedAt, a.pushID) < (b.nextAttemptAt, b.acceptedAt, b.pushID)
    }

    package func claimToSend(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> [ClaimedPush] {
        try await claimRows(
            .outbox, operation: "claim", owner: owner, limit: limit, now: now, lease: lease, of: "items",
            returning: Self.claimedTargetColumns, decode: Self.claimedPush
        ) { Self.claimOrder($0.item, $1.item) }
    }

    /// The claim's RETURNING list for ``claimToSend(owner:limit:now:lease:)``: every outbox column, and the
    /// target activity's columns a send needs, each a lookup by its primary key (NULL for other targets and
    /// for an activity no longer registered).
    static let claimedTargetColumns: String = {
        let targetColumns = ["push_token", "bundle_id", "state", "token_state", "token_invalid_reason"]
        let lookups = targetColumns.map { column in
            "(SELECT a.\(column) FROM activities a WHERE outbox.target_kind = 'activity' AND a.activity_id = outbox.target_id) AS target_\(column)"
        }
        return (["*"] + lookups).joined(separator: ", ")
    }()

    /// A row of ``claimedTargetColumns``.
    @Sendable static func claimedPush(_ row: SQLRow) throws(PushStoreError) -> ClaimedPush {
        let item = try RowDecoding.outboxItem(row)
        guard case .activity = item.target, try row.optionalString("target_push_token") != nil else { return ClaimedPush(item: item) }
        let invalid = try row.string("target_token_state") == "invalid"
        return ClaimedPush(
            item: item,
            activity: ClaimedActivity(
                pushToken: try RowDecoding.token(row, "target_push_token"), bundleID: try row.string("target_bundle_id"),
                state: try row.enumValue("target_state", as: ActivityState.self),
                invalidTokenReason: invalid ? (try row.optionalString("target_token_invalid_reason") ?? "") : nil))
    }

    package func renewClaims(owner: String, pushIDs: [UUID], until: Date) async throws(PushStoreError) -> Int {
        try await renewRows(.outbox, operation: "renewClaims", owner: owner, ids: pushIDs, until: until)
    }

    package func complete(owner: String, results: [DeliveryResult], at: Date) async throws(PushStoreError)
        -> CompletionReport
    {
        try Validation.identifier(owner, field: "owner")
        try Validation.batch(results, field: "results", pushID: \.pushID, Validation.deliveryResult)
        guard !results.isEmpty else { return CompletionReport(records: [], notHeld: []) }
        let dialect = self.dialect
        // Outcomes lost to a power loss leave their pushes in the outbox, sent again with the same ids.
        return try await run("completeBatch", commit: .deferred) { session throws(PushStoreError) in
            try await Self.complete(session, owner: owner, results: results, at: at, dialect: dialect)
        }
    }

    /// ``complete(owner:results:at:)`` inside a transaction, the results already validated. With `claimed`
    /// holding every result's push (as the worker claimed it), the rows are removed without being read back.
    static func complete(
        _ session: any SQLSession, owner: String, results: [DeliveryResult], at: Date, dialect: SQLDialect, claimed: [OutboxItem] = []
    ) async throws(PushStoreError) -> CompletionReport {
        guard !results.isEmpty else { return CompletionReport(records: [], notHeld: []) }
        var byID = [UUID: OutboxItem](minimumCapacity: claimed.count)
        for item in claimed { byID[item.pushID] = item }
        let fromClaim = results.allSatisfy { byID[$0.pushID] != nil }
        // One statement finds and removes what this owner holds; items it no longer holds stay.
        var held = [UUID: OutboxItem]()
        for row in try await queryIn(
            session, "DELETE FROM outbox WHERE claim_owner = ? AND push_id IN ({IN}) RETURNING \(fromClaim ? "push_id" : "*")",
            leading: [.text(owner)], values: results.map { SQLValue.uuid($0.pushID) })
        {
            if fromClaim {
                let pushID = try row.uuid("push_id")
                held[pushID] = byID[pushID]
            } else {
                let item = try RowDecoding.outboxItem(row)
                held[item.pushID] = item
            }
        }
        var records = [DeliveryRecord]()
        var notHeld = [UUID]()
        for result in results {
            guard let item = held[result.pushID] else {
                notHeld.append(result.pushID)
                continue
            }
            records.append(DeliveryRecord(item, result, recordedAt: at))
        }
        try await insertRows(
            session, dialect: dialect, table: "deliveries", columns: RowDecoding.deliveryColumns,
            items: records, values: RowDecoding.deliveryValues)
        try await countRetriedOutcomes(session, records, at: at)
        return CompletionReport(records: records, notHeld: notHeld)
    }

    package func release(owner: String) async throws(PushStoreError) -> Int {
        try await releaseAll(.outbox, operation: "release", owner: owner)
    }

    package func outboxDepth() async throws(PushStoreError) -> Int {
        try await depth(of: .outbox, operation: "outboxDepth")
    }

    package func pendingItems(activityID: String) async throws(PushStoreError) -> [OutboxItem] {
        try Validation.identifier(activityID, field: "activityId")
        return try await run("pendingItems", readOnly: true) { session throws(PushStoreError) in
            var items = [OutboxItem]()
            for row in try await session.query(
                """
                SELECT * FROM outbox WHERE target_kind = 'activity' AND target_id = ?
                ORDER BY accepted_at, push_id
                """, [.text(activityID)])
            {
                items.append(try RowDecoding.outboxItem(row))
            }
            return items
        }
    }
}

/// What a routine update replaces when it is still waiting: the update to the same activity, or the
/// broadcast to the same channel. Push-to-start pushes are never replaced (each starts an activity).
struct CoalescingTarget: Hashable {
    static let kinds = ["activity", "channel"]
    var kind: String
    var id: String

    init?(_ item: OutboxItem) {
        guard item.isCoalescable else { return nil }
        switch item.target {
        case .activity, .channel: (kind, id) = RowDecoding.targetColumns(item.target)
        case .pushToStartToken: return nil
        }
    }
}
