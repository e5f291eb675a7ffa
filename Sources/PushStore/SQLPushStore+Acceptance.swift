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
        let (turn, round) = acceptances.join(acceptance)
        if let round { return try await lead(round, turn) }
        switch await turn.answer() {
        case .written(let outcome): return try outcome.get()
        case .lead: return try await lead(acceptances.round(), turn)
        }
    }

    /// Writes a batch of acceptances (``AcceptanceBatcher``) and answers each; returns the leader's own.
    private func lead(_ round: AcceptanceBatcher.Round, _ own: AcceptanceBatcher.Turn) async throws(PushStoreError) -> AcceptanceOutcome {
        let dialect = self.dialect
        let written: Result<[AcceptanceOutcome], PushStoreError>
        do {
            written = .success(
                try await run("accept") { session throws(PushStoreError) in
                    try await Self.write(round.take().map(\.acceptance), session, dialect: dialect)
                })
        } catch {
            written = .failure(error)
        }
        // The batch the body took; taken now when the body never ran (its transaction could not begin).
        let batch = round.take()
        switch written {
        case .success(let outcomes):
            for (entry, outcome) in zip(batch, outcomes) {
                countCoalesced(outcome.enqueued)
                entry.turn.give(.written(.success(outcome)))
            }
        case .failure(let error) where batch.count == 1:
            batch[0].turn.give(.written(.failure(error)))
        case .failure:
            // Each alone, so that the acceptance that failed the batch fails alone.
            for entry in batch {
                do {
                    let outcome = try await run("accept") { session throws(PushStoreError) in
                        try await Self.write([entry.acceptance], session, dialect: dialect)[0]
                    }
                    countCoalesced(outcome.enqueued)
                    entry.turn.give(.written(.success(outcome)))
                } catch {
                    entry.turn.give(.written(.failure(error)))
                }
            }
        }
        guard case .written(let outcome) = await own.answer() else {
            throw .database(detail: "an acceptance was not in the batch its caller led")
        }
        return try outcome.get()
    }

    /// Writes acceptances of distinct activities in one transaction: each one's budget, one enqueue of all
    /// their pushes (one multi-row insert, one coalescing read), then each one's content-states and ends.
    /// Returns their outcomes in order.
    private static func write(_ acceptances: [Acceptance], _ session: any SQLSession, dialect: SQLDialect) async throws(PushStoreError)
        -> [AcceptanceOutcome]
    {
        var pushes = [[OutboxItem]]()
        pushes.reserveCapacity(acceptances.count)
        for acceptance in acceptances {
            let decisions =
                acceptance.budget.isEmpty
                ? [:] : try await consumeHighPriority(session, acceptance.budget, at: acceptance.at, dialect: dialect)
            let made = acceptance.pushes(decisions)
            try Validation.batch(made, field: "items", pushID: \.pushID, Validation.outboxItem)
            pushes.append(made)
        }
        let enqueued = try await enqueue(session, pushes.count == 1 ? pushes[0] : pushes.flatMap { $0 }, dialect: dialect)
        var outcomes = [AcceptanceOutcome]()
        outcomes.reserveCapacity(acceptances.count)
        for (acceptance, made) in zip(acceptances, pushes) {
            try await recordStateChanges(session, acceptance.stateChanges, acceptedAt: acceptance.at)
            let ended = try await recordAcceptedEnds(session, acceptance.ends, at: acceptance.at, journal: acceptance.journal, dialect: dialect)
            // Its own pushes; the pushes they replaced (of its own activities: no other acceptance of the batch has them).
            let own = acceptances.count == 1 ? enqueued : enqueued.of(made)
            outcomes.append(AcceptanceOutcome(pushes: made, enqueued: own, ended: ended))
        }
        return outcomes
    }

    /// The content-states, one statement per distinct state, timestamp and chunk of ids (a batch of
    /// single updates has a state each; a group's activities share one).
    private static func recordStateChanges(_ session: any SQLSession, _ changes: [Acceptance.StateChange], acceptedAt: Date)
        async throws(PushStoreError)
    {
        guard !changes.isEmpty else { return }
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
