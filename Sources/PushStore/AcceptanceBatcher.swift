import Synchronization

/// Acceptances that wait for the writer together are written together: one store operation, with one
/// multi-row outbox insert and one coalescing read for all of them, instead of a transaction each with
/// its own statements (a single update's acceptance was most of the writer's time per update).
///
/// The first acceptance to arrive while none waits leads: it submits a transaction, and that
/// transaction's body, once the writer runs it, takes every acceptance waiting by then (``Round/take()``).
/// The others follow: they wait for the leader to answer them once that transaction has committed, so
/// each is still durable when it is answered. Two acceptances that touch one activity are never in one
/// batch, and keep their order: the later waits for the next batch, which the first such waiter leads.
///
/// Each acceptance stays all or nothing: when a batch's write fails, the leader writes each of its
/// acceptances alone, so one that is refused (a push id used before) fails alone.
final class AcceptanceBatcher: Sendable {
    /// One acceptance waiting, and how its caller learns its turn.
    struct Entry: Sendable {
        var acceptance: Acceptance
        /// The activities it writes: no other acceptance in its batch writes any of them.
        var activities: Set<String>
        var turn: Turn
    }

    /// A caller's turn: to lead a batch, or the outcome a leader wrote for it.
    final class Turn: Sendable {
        enum Answer: Sendable {
            case lead
            case written(Result<AcceptanceOutcome, PushStoreError>)
        }

        private let state = Mutex<(answer: Answer?, waiter: CheckedContinuation<Answer, Never>?)>((nil, nil))

        /// Waits for the answer (at once when it came already).
        func answer() async -> Answer {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Answer? in
                    if let answer = state.answer { return answer }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        func give(_ answer: Answer) {
            let waiter = state.withLock { state in
                state.answer = answer
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: answer)
        }
    }

    /// The batch one leader's transaction writes: taken once, when its body first runs, and the same batch
    /// should the body run again (a backend that retries a transaction).
    final class Round: Sendable {
        private let batcher: AcceptanceBatcher
        private let batch = Mutex<[Entry]?>(nil)

        fileprivate init(_ batcher: AcceptanceBatcher) {
            self.batcher = batcher
        }

        /// The acceptances this round writes (the leader's first).
        func take() -> [Entry] {
            batch.withLock { batch in
                if let batch { return batch }
                let taken = batcher.takeBatch()
                batch = taken
                return taken
            }
        }

        /// Whether the body ever ran and took its batch.
        var taken: Bool { batch.withLock { $0 != nil } }
    }

    private struct State {
        var waiting: [Entry] = []
        /// A leader's transaction has not yet taken the batch: a new acceptance joins it.
        var leaderWaiting = false
    }

    private let state = Mutex(State())
    /// The most acceptances one batch takes; the rest wait for the next.
    let maximumBatch: Int

    init(maximumBatch: Int = 256) {
        self.maximumBatch = max(1, maximumBatch)
    }

    /// A round for a caller told to lead (``Turn/Answer/lead``).
    func round() -> Round { Round(self) }

    /// Adds an acceptance; returns its turn, and a round when the caller leads at once.
    func join(_ acceptance: Acceptance) -> (turn: Turn, round: Round?) {
        var activities = Set(acceptance.stateChanges.map(\.activityID))
        activities.formUnion(acceptance.budget.map(\.activityID))
        activities.formUnion(acceptance.ends.map(\.activityID))
        let entry = Entry(acceptance: acceptance, activities: activities, turn: Turn())
        let leads = state.withLock { state in
            state.waiting.append(entry)
            guard !state.leaderWaiting else { return false }
            state.leaderWaiting = true
            return true
        }
        return (entry.turn, leads ? Round(self) : nil)
    }

    /// Takes the waiting acceptances that can share a batch, in order; the first one left waiting (if any)
    /// is told to lead the next batch.
    private func takeBatch() -> [Entry] {
        let (taken, next) = state.withLock { state -> ([Entry], Entry?) in
            var taken = [Entry]()
            var left = [Entry]()
            // The activities of everything before: taken, or left waiting (which a later one must not pass).
            var seen = Set<String>()
            for entry in state.waiting {
                if taken.count < maximumBatch, entry.activities.isDisjoint(with: seen) {
                    taken.append(entry)
                } else {
                    left.append(entry)
                }
                seen.formUnion(entry.activities)
            }
            state.waiting = left
            state.leaderWaiting = !left.isEmpty
            return (taken, left.first)
        }
        next?.turn.give(.lead)
        return taken
    }
}
