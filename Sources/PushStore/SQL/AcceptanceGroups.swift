import Foundation
import Metrics
import Synchronization

/// Acceptances stored together: those that arrive while a group is being stored wait, then are stored
/// together as one transaction whose statements each write for the whole group (one outbox insert, one
/// content-state update, one commit), instead of a transaction of five or six statements each. On
/// PostgreSQL each statement is a round trip; on SQLite, whose group commit already shares the commit, a
/// group is one transaction body on the one writer instead of one each.
///
/// Each caller still gets what its own transaction would have given it:
/// - it is answered after the shared commit: a 202 still means durable;
/// - its answer holds its own pushes, push ids and replaced pushes only;
/// - when the shared transaction fails, for whatever reason, each member is stored again alone, and so
///   gets its own error (or succeeds) as it would have without the group.
///
/// A group never holds two acceptances for the same activity (nor one that names an activity twice):
/// an acceptance that shares an activity with the group waits for the next, so the grouped statements
/// never have to order two changes to one row. Acceptances that end activities, and large ones (the
/// batch endpoint's, already one transaction for many pushes), are stored alone.
///
/// One group is stored at a time, in a task of its own, so one caller's cancellation (a client that went
/// away) does not cancel the others' statements. Two at once were tried: on the benchmark machine (2
/// cores, the database on the same machine) they made smaller groups, more round trips and no more
/// updates per second (Benchmarks/intake.sh on PostgreSQL, 2026-11-29).
///
/// Measured: `livepush_store_acceptance_groups` (acceptances per group) and `livepush_store_duration_seconds`
/// with operation `acceptGroup`.
final class AcceptanceGroups: Sendable {
    /// The most state changes an acceptance may hold to be grouped.
    static let maximumMemberSize = 64

    private struct Member: Sendable {
        var acceptance: Acceptance
        var activities: Set<String>
        var finish: @Sendable (Result<AcceptanceOutcome, PushStoreError>) -> Void
    }

    private struct State {
        var waiting: [Member] = []
        var running = false
        var largestGroup = 0
    }

    private let state = Mutex(State())
    private let maximumGroup: Int
    private let groupSize: Recorder

    /// - Parameter maximumGroup: the most acceptances one group takes; the rest wait for the next.
    init(backend: String, maximumGroup: Int = 128) {
        self.maximumGroup = max(1, maximumGroup)
        groupSize = Recorder(label: "livepush_store_acceptance_groups", dimensions: [("backend", backend)])
    }

    /// The most acceptances one group has held so far (for tests).
    var largestGroup: Int { state.withLock { $0.largestGroup } }

    /// The activities `acceptance` touches, when it may join a group: no ends, not too many changes, and
    /// no activity named twice.
    static func activities(of acceptance: Acceptance) -> Set<String>? {
        guard acceptance.ends.isEmpty, acceptance.stateChanges.count <= maximumMemberSize else { return nil }
        let ids = Set(acceptance.stateChanges.map(\.activityID))
        guard ids.count == acceptance.stateChanges.count, acceptance.budget.allSatisfy({ ids.contains($0.activityID) }) else {
            return nil
        }
        return ids
    }

    /// Stores `acceptance` (already validated) with whatever arrives with it; see the type.
    func accept(_ acceptance: Acceptance, store: SQLPushStore) async throws(PushStoreError) -> AcceptanceOutcome {
        guard let activities = Self.activities(of: acceptance) else { return try await store.acceptAlone(acceptance) }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<AcceptanceOutcome, PushStoreError>, Never>) in
            let member = Member(acceptance: acceptance, activities: activities) { continuation.resume(returning: $0) }
            let start = state.withLock { state in
                state.waiting.append(member)
                guard !state.running else { return false }
                state.running = true
                return true
            }
            if start {
                Task { await self.runGroups(store) }
            }
        }
        return try result.get()
    }

    private func runGroups(_ store: SQLPushStore) async {
        while let group = nextGroup() {
            groupSize.record(group.count)
            if group.count == 1 {
                let member = group[0]
                do throws(PushStoreError) {
                    member.finish(.success(try await store.acceptAlone(member.acceptance)))
                } catch {
                    member.finish(.failure(error))
                }
                continue
            }
            do throws(PushStoreError) {
                let outcomes = try await store.acceptTogether(group.map(\.acceptance))
                for (member, outcome) in zip(group, outcomes) { member.finish(.success(outcome)) }
            } catch {
                // Each alone, so that each gets its own error, or succeeds.
                await withTaskGroup(of: Void.self) { tasks in
                    for member in group {
                        tasks.addTask {
                            do throws(PushStoreError) {
                                member.finish(.success(try await store.acceptAlone(member.acceptance)))
                            } catch {
                                member.finish(.failure(error))
                            }
                        }
                    }
                }
            }
        }
    }

    /// The next group of the waiting acceptances (``split(_:maximum:activities:)``); the others stay.
    private func nextGroup() -> [Member]? {
        state.withLock { state in
            let (group, left) = Self.split(state.waiting, maximum: maximumGroup, activities: \.activities)
            state.waiting = left
            guard !group.isEmpty else {
                state.running = false
                return nil
            }
            state.largestGroup = max(state.largestGroup, group.count)
            return group
        }
    }

    /// The waiting, in order, that share no activity with one taken before them, nor with one left waiting
    /// before them (a later acceptance of an activity never passes an earlier one), up to `maximum`; and
    /// the others, in order.
    static func split<Waiting>(_ waiting: [Waiting], maximum: Int, activities: (Waiting) -> Set<String>) -> (group: [Waiting], left: [Waiting]) {
        var group = [Waiting]()
        var left = [Waiting]()
        var seen = Set<String>()
        for member in waiting {
            let touched = activities(member)
            if group.count < maximum, seen.isDisjoint(with: touched) {
                group.append(member)
            } else {
                left.append(member)
            }
            seen.formUnion(touched)
        }
        return (group, left)
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
    /// chunk: a join with the rows' values, as ``recordContentState(_:contentState:acceptedAt:)`` does
    /// for one state, timestamp and acceptance time.
    static func recordGroupedStateChanges(_ session: any SQLSession, _ changes: [(change: Acceptance.StateChange, acceptedAt: Date)])
        async throws(PushStoreError)
    {
        let sorted = changes.sorted { $0.change.activityID < $1.change.activityID }
        var start = 0
        while start < sorted.count {
            let end = min(sorted.count, start + 500)
            var binds = [SQLValue]()
            binds.reserveCapacity((end - start) * 4)
            for (change, acceptedAt) in sorted[start..<end] {
                binds.append(.text(change.activityID))
                binds.append(change.contentState.map { .text(String(decoding: $0.serialized(), as: UTF8.self)) } ?? .null)
                binds.append(.date(change.timestamp))
                binds.append(.date(acceptedAt))
            }
            let rows = Array(repeating: "(?, ?, ?, ?)", count: end - start).joined(separator: ", ")
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
