import Foundation
import LiveActivity

/// The ``AcceptanceStore`` operation.
extension SQLPushStore {
    package func accept(_ acceptance: Acceptance) async throws(PushStoreError) -> AcceptanceOutcome {
        try Self.validateBudget(acceptance.budget)
        for (index, change) in acceptance.stateChanges.enumerated() {
            try Validation.identifier(change.activityID, field: "stateChanges[\(index)].activityId")
        }
        for (index, end) in acceptance.ends.enumerated() {
            try Validation.identifier(end.activityID, field: "ends[\(index)].activityId")
        }
        // Requests that arrive together share a transaction (``AcceptanceGroups``).
        return try await acceptanceGroups.store(acceptance, in: self)
    }

    /// ``accept(_:)`` inside a transaction, the acceptance already validated.
    static func accept(_ session: any SQLSession, _ acceptance: Acceptance, dialect: SQLDialect) async throws(PushStoreError)
        -> AcceptanceOutcome
    {
        let decisions =
            acceptance.budget.isEmpty
            ? [:] : try await Self.consumeHighPriority(session, acceptance.budget, at: acceptance.at, dialect: dialect)
        let pushes = acceptance.pushes(decisions)
        try Validation.batch(pushes, field: "items", pushID: \.pushID, Validation.outboxItem)
        let enqueued = try await Self.enqueue(session, pushes, dialect: dialect)
        try await Self.recordStateChanges(session, acceptance.stateChanges, acceptedAt: acceptance.at)
        let ended = try await Self.recordAcceptedEnds(session, acceptance.ends, at: acceptance.at, journal: acceptance.journal, dialect: dialect)
        return AcceptanceOutcome(pushes: pushes, enqueued: enqueued, ended: ended)
    }

    /// The content-states. Activities named once each (the batch endpoint's, each with a state of its own):
    /// one statement per 500, joined with the rows' values. Otherwise one statement per distinct state,
    /// timestamp and chunk of ids, oldest first, so that an activity named twice keeps its newest state.
    private static func recordStateChanges(_ session: any SQLSession, _ changes: [Acceptance.StateChange], acceptedAt: Date)
        async throws(PushStoreError)
    {
        guard !changes.isEmpty else { return }
        if changes.count > 1, Set(changes.map(\.activityID)).count == changes.count {
            try await recordGroupedStateChanges(session, changes.map { ($0, acceptedAt) })
            return
        }
        var byState: [(state: JSONValue?, updates: [(activityID: String, timestamp: Date)])] = []
        var indexByState: [JSONValue?: Int] = [:]
        for change in changes {
            if let index = indexByState[change.contentState] {
                byState[index].updates.append((change.activityID, change.timestamp))
            } else {
                indexByState[change.contentState] = byState.count
                byState.append((change.contentState, [(change.activityID, change.timestamp)]))
            }
        }
        for (state, updates) in byState {
            _ = try await recordContentState(session, updates, contentState: state, acceptedAt: acceptedAt)
        }
    }

    /// The ends, grouped by dismissal date; returns the ids this call took out of `active`, in order.
    private static func recordAcceptedEnds(
        _ session: any SQLSession, _ ends: [Acceptance.End], at: Date, journal: WebhookJournal?, dialect: SQLDialect
    ) async throws(PushStoreError) -> [String] {
        guard !ends.isEmpty else { return [] }
        let active = try await activeAmong(session, Array(Set(ends.map(\.activityID))).sorted().map { SQLValue.text($0) }, dialect: dialect)
        var idsByDismissal = [Date: [SQLValue]]()
        for end in ends { idsByDismissal[end.dismissalDate, default: []].append(.text(end.activityID)) }
        var rows = [SQLRow]()
        for (dismissal, ids) in idsByDismissal.sorted(by: { $0.key < $1.key }) {
            rows += try await end(session, ids, at: at, dismissalDate: dismissal, returning: "activity_id, user_id")
        }
        var seen = Set<String>()
        let endedNow = ends.map(\.activityID).filter { active.contains($0) && seen.insert($0).inserted }
        try await recordEnds(endedNow, rows: rows, at: at, in: journal, session: session, dialect: dialect)
        return endedNow
    }
}
