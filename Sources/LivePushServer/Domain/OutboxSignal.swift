import APNsCore
import Synchronization

/// Wakes idle delivery workers when this process puts pushes in the outbox, so an accepted push waits
/// for no poll. Workers still poll (for retries coming due and for pushes other instances accepted).
///
/// A worker reads ``generation`` before it claims and passes it to ``wait(after:timeout:)``: pushes
/// enqueued between its empty claim and its wait are not missed.
///
/// Each announcement says what it is about (``Work``), and each kind has a generation of its own
/// (``generation(of:)``): a worker that found the group pages empty asks for them again when pages were
/// announced, not on every accepted single push (while updates pour in, an empty page claim per worker
/// round is a write transaction each, waiting its turn at SQLite's one writer).
final class OutboxSignal: Sendable {
    /// What an announcement is about, as the queues that wait for it: rows of a queue (outbox pushes,
    /// webhook events), or pages of a send (a group send's members, an audience start's users).
    enum Work: Int, CaseIterable, Sendable {
        case items
        case pages
    }

    private struct State {
        var generation: UInt64 = 0
        var generations: [UInt64] = Array(repeating: 0, count: Work.allCases.count)
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiterID: UInt64 = 0
        /// Items announced that no claim has begun to take yet (as far as the signal can tell).
        var unclaimed = 0
        /// Workers woken for items that have not yet begun their claim: each will take up to
        /// `itemsPerWorker` of the unclaimed items.
        var enRoute = 0
    }

    private let state = Mutex(State())
    /// Items one worker claims at a time: a wake-up for `n` items wakes `n / itemsPerWorker` workers (at
    /// least one), not all of them.
    private let itemsPerWorker: Int

    init(itemsPerWorker: Int) {
        self.itemsPerWorker = max(1, itemsPerWorker)
    }

    /// Changes every time work is announced.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Changes every time work of this kind is announced.
    func generation(of work: Work) -> UInt64 {
        state.withLock { $0.generations[work.rawValue] }
    }

    /// Whether items were announced that no claim has begun to take since (as far as the signal can tell):
    /// a worker that has just claimed fewer than a full batch claims again only then (or after its poll
    /// interval), not on every round.
    var hasUnclaimedItems: Bool { state.withLock { $0.unclaimed > 0 } }

    /// How many workers are waiting (for tests).
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Announces `count` new items (pushes, webhook events): wakes as many waiting workers as it takes
    /// to claim them, counting those already woken that have not begun their claim. Many requests answered
    /// by one commit each announce their push: one worker's claim takes them all, and the other workers
    /// are not all woken to find the outbox empty (a write transaction each).
    func wake(items count: Int) {
        guard count > 0 else { return }
        let itemsPerWorker = self.itemsPerWorker
        wake(announcing: .items) { state in
            state.unclaimed += count
            let needed = (state.unclaimed + itemsPerWorker - 1) / itemsPerWorker - state.enRoute
            let woken = min(max(0, needed), state.waiters.count)
            state.enRoute += woken
            return woken
        }
    }

    /// A worker begins a claim of items: it takes up to `itemsPerWorker` of those announced, and is no
    /// longer on its way (see ``wake(items:)``).
    func claimingItems() {
        state.withLock { state in
            state.enRoute = max(0, state.enRoute - 1)
            state.unclaimed = max(0, state.unclaimed - itemsPerWorker)
        }
    }

    /// Announces a new send's pages: wakes `workers` waiting workers to claim them.
    func wake(pagesFor workers: Int) {
        wake(announcing: .pages) { _ in max(1, workers) }
    }

    /// Wakes every waiting worker (to stop them).
    func wakeAll() {
        wake(announcing: nil) { _ in Int.max }
    }

    /// Announces `work` (nil: none, only the wake-up) and wakes as many waiting workers as `workers` says,
    /// asked under the lock.
    private func wake(announcing work: Work?, workers: (inout State) -> Int) {
        let woken = state.withLock { state in
            state.generation &+= 1
            if let work { state.generations[work.rawValue] &+= 1 }
            let taken = Array(state.waiters.prefix(workers(&state)))
            state.waiters.removeFirst(taken.count)
            return taken
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// Returns when pushes were announced after `seen` (at once if they already were), when `timeout`
    /// has passed, or when the task is cancelled.
    func wait(after seen: UInt64, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForWake(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForWake(after seen: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    // Cancellation is checked under the lock the handler takes, so it cannot slip between.
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters.append((id, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }
}
