import Foundation

/// Acceptances that arrive together share one transaction (``WriteGroups``) whose statements each write
/// for the whole group: one outbox insert, one content-state update, one commit, instead of a transaction
/// of five or six statements each. Each caller's answer holds its own pushes, push ids and replaced pushes
/// only.
///
/// A group never holds two acceptances for the same activity (nor one that names an activity twice).
/// Acceptances that end activities, and large ones (the batch endpoint's, already one transaction for many
/// pushes), are stored alone.
///
/// Measured: `livepush_store_acceptance_groups` (acceptances per group) and `livepush_store_duration_seconds`
/// with operation `acceptGroup`.
typealias AcceptanceGroups = WriteGroups<Acceptance>

extension AcceptanceGroups {
    convenience init(backend: String) {
        self.init(label: "livepush_store_acceptance_groups", backend: backend)
    }
}

extension Acceptance: GroupedWrite {
    /// The most state changes an acceptance may hold to be grouped.
    static let maximumMemberSize = 64

    /// The activities the acceptance touches, when it may join a group: no ends, not too many changes, and
    /// no activity named twice.
    var groupKeys: Set<String>? {
        guard ends.isEmpty, stateChanges.count <= Self.maximumMemberSize else { return nil }
        let ids = Set(stateChanges.map(\.activityID))
        guard ids.count == stateChanges.count, budget.allSatisfy({ ids.contains($0.activityID) }) else { return nil }
        return ids
    }

    func storeAlone(in store: SQLPushStore) async throws(PushStoreError) -> AcceptanceOutcome {
        try await store.acceptAlone(self)
    }

    static func storeTogether(_ writes: [Acceptance], in store: SQLPushStore) async throws(PushStoreError)
        -> [Result<AcceptanceOutcome, PushStoreError>]
    {
        try await store.acceptTogether(writes).map { .success($0) }
    }
}

extension SQLPushStore {
    /// One acceptance as a transaction of its own.
    func acceptAlone(_ acceptance: Acceptance) async throws(PushStoreError) -> AcceptanceOutcome {
        let dialect = self.dialect
        let outcome = try await run("accept") { session throws(PushStoreError) -> AcceptanceOutcome in
            try await Self.accept(session, acceptance, dialect: dialect)
        }
        countCoalesced(outcome.enqueued)
        return outcome
    }

    /// Acceptances that share no activity and end none (``AcceptanceGroups``), as one transaction: the
    /// budget of each, then one enqueue of all their pushes and one content-state statement for all.
    /// Returns each one's outcome, in order.
    func acceptTogether(_ acceptances: [Acceptance]) async throws(PushStoreError) -> [AcceptanceOutcome] {
        let dialect = self.dialect
        let outcomes = try await run("acceptGroup") { session throws(PushStoreError) -> [AcceptanceOutcome] in
            var pushesByMember = [[OutboxItem]]()
            for acceptance in acceptances {
                let decisions =
                    acceptance.budget.isEmpty
                    ? [:] : try await Self.consumeHighPriority(session, acceptance.budget, at: acceptance.at, dialect: dialect)
                let pushes = acceptance.pushes(decisions)
                try Validation.batch(pushes, field: "items", pushID: \.pushID, Validation.outboxItem)
                pushesByMember.append(pushes)
            }
            let all = pushesByMember.flatMap { $0 }
            try Validation.batch(all, field: "items", pushID: \.pushID, Validation.outboxItem)
            let enqueued = try await Self.enqueue(session, all, dialect: dialect)
            try await Self.recordGroupedStateChanges(
                session, acceptances.flatMap { acceptance in acceptance.stateChanges.map { ($0, acceptance.at) } })
            // Each member's share: its pushes, and the replacements its pushes made.
            var owner = [UUID: Int]()
            for (index, pushes) in pushesByMember.enumerated() { for push in pushes { owner[push.pushID] = index } }
            var coalesced = Array(repeating: [CoalescedPush](), count: acceptances.count)
            for replacement in enqueued.coalesced {
                guard let index = owner[replacement.by] else {
                    throw .database(detail: "a grouped acceptance replaced a push by one it did not make")
                }
                coalesced[index].append(replacement)
            }
            return pushesByMember.enumerated().map { index, pushes in
                AcceptanceOutcome(
                    pushes: pushes, enqueued: EnqueueResult(accepted: pushes.map(\.pushID), coalesced: coalesced[index]), ended: [])
            }
        }
        for outcome in outcomes { countCoalesced(outcome.enqueued) }
        return outcomes
    }

    /// The content-states of activities named once each (with when each was accepted), one statement per
    /// 500, padded on SQLite to a fixed row count (``RowShapes``): a join with the rows' values, as
    /// ``recordContentState(_:contentState:acceptedAt:)`` does for one state, timestamp and acceptance time.
    static func recordGroupedStateChanges(_ session: any SQLSession, _ changes: [(change: Acceptance.StateChange, acceptedAt: Date)])
        async throws(PushStoreError)
    {
        let sorted = changes.sorted { $0.change.activityID < $1.change.activityID }
        var start = 0
        while start < sorted.count {
            let end = min(sorted.count, start + 500)
            // The last row repeated up to the fixed count: the same activity joined twice to the same values.
            let places = RowShapes.padded(end - start, limit: 500, fixed: session.fixedRowCounts)
            var binds = [SQLValue]()
            binds.reserveCapacity(places * 4)
            for (change, acceptedAt) in sorted[start..<end] {
                binds.append(.text(change.activityID))
                binds.append(change.contentState.map { .text(String(decoding: $0.serialized(), as: UTF8.self)) } ?? .null)
                binds.append(.date(change.timestamp))
                binds.append(.date(acceptedAt))
            }
            let last = binds.suffix(4)
            for _ in (end - start)..<places { binds += last }
            let rows = Array(repeating: "(?, ?, ?, ?)", count: places).joined(separator: ", ")
            // A common table expression names the values' columns on both databases (SQLite has no
            // `AS changes (id, ...)` on a subquery); both join it in UPDATE ... FROM.
            try await session.execute(
                """
                WITH changes (id, state, stamp, accepted) AS (VALUES \(rows))
                UPDATE activities SET last_content_state = COALESCE(changes.state, activities.last_content_state),
                    last_timestamp = changes.stamp,
                    last_accepted_at = CASE WHEN activities.last_accepted_at IS NULL OR activities.last_accepted_at < changes.accepted
                        THEN changes.accepted ELSE activities.last_accepted_at END,
                    updated_at = changes.accepted
                FROM changes
                WHERE activities.activity_id = changes.id
                    AND (activities.last_timestamp IS NULL OR activities.last_timestamp <= changes.stamp)
                """, binds)
            start = end
        }
    }
}
