import Foundation
import Metrics
import Synchronization

/// Group commit over a backend with one writer (SQLite): transactions that arrive while one is running
/// wait, then run together as one database transaction with one commit instead of one each. 32 API
/// requests that write at once cost one BEGIN, one COMMIT and one pass through the writer's gate, not 32.
///
/// Each caller still gets a transaction of its own, as far as it can tell:
/// - its body runs inside a `SAVEPOINT`, so a body that throws rolls back its own writes only, and its
///   caller gets its own error while the others commit;
/// - it is answered after the shared commit, with the commit's failure if that fails: a durable
///   transaction is on disk when it returns, as before;
/// - bodies run one after another on the one connection, in the order they arrived, as they did when
///   each took its turn through the writer gate.
///
/// The group is durable when any of its transactions is; a group of deferred transactions commits
/// deferred. A group runs in a task of its own, so one caller's cancellation (a client that went away)
/// does not cancel the statements of the others. The next group starts once this one has committed
/// (``SQLCommitNotice``), while this one's callers still wait for the log's sync (``SQLiteWALSyncer``),
/// which then covers both.
///
/// Measured: `livepush_store_group_transactions` (transactions per group) and
/// `livepush_store_group_duration_seconds` with `part` "bodies" (the members' statements), "commit" (BEGIN,
/// COMMIT and the wait for the writer's gate: the writer's time apart from the statements) and "sync" (from
/// the COMMIT to the answer: the wait for the log's sync, which holds no writer).
final class GroupCommitBackend: SQLBackend {
    let dialect: SQLDialect
    private let inner: any SQLBackend
    private let maximumGroup: Int
    private let state = Mutex(GroupQueue<Member>())
    private let groupSize: Recorder
    private let bodiesDuration: Metrics.Timer
    private let commitDuration: Metrics.Timer
    private let syncDuration: Metrics.Timer

    /// One caller's transaction, its result type erased.
    private struct Member: Sendable {
        var commit: SQLCommit
        /// Runs the caller's body; true when it returned (its value is kept), false when it threw (its error
        /// is kept).
        var run: @Sendable (any SQLSession) async -> Bool
        /// Answers the caller once the group has ended: with what its body returned or threw, or with the
        /// group's failure when the shared transaction did not commit.
        var finish: @Sendable (PushStoreError?) -> Void
        /// The caller's ``SQLCommitNotice``: told when the group commits with this member's writes.
        var committed: SQLCommitNotice?
    }

    /// - Parameter maximumGroup: the most transactions one group takes; the rest wait for the next.
    init(_ inner: any SQLBackend, maximumGroup: Int = 256) {
        self.inner = inner
        self.dialect = inner.dialect
        self.maximumGroup = max(1, maximumGroup)
        let backend = ("backend", inner.dialect.name)
        groupSize = Recorder(label: "livepush_store_group_transactions", dimensions: [backend])
        bodiesDuration = Metrics.Timer(label: "livepush_store_group_duration_seconds", dimensions: [backend, ("part", "bodies")])
        commitDuration = Metrics.Timer(label: "livepush_store_group_duration_seconds", dimensions: [backend, ("part", "commit")])
        syncDuration = Metrics.Timer(label: "livepush_store_group_duration_seconds", dimensions: [backend, ("part", "sync")])
    }

    func transaction<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, PushStoreError>, Never>) in
            let outcome = Mutex<Result<T, PushStoreError>?>(nil)
            let member = Member(
                commit: commit,
                run: { session in
                    do throws(PushStoreError) {
                        let value = try await body(session)
                        outcome.withLock { $0 = .success(value) }
                        return true
                    } catch {
                        outcome.withLock { $0 = .failure(error) }
                        return false
                    }
                },
                finish: { groupFailure in
                    let own = outcome.withLock { $0 }
                    switch (own, groupFailure) {
                    case (.failure(let error)?, _): continuation.resume(returning: .failure(error))
                    case (_, let failure?): continuation.resume(returning: .failure(failure))
                    case (let value?, nil): continuation.resume(returning: value)
                    case (nil, nil):
                        continuation.resume(returning: .failure(.database(detail: "a grouped transaction ended without running")))
                    }
                },
                committed: SQLCommitNotice.current)
            enqueue(member)
        }
        return try result.get()
    }

    /// How many transactions wait for the next group.
    var waiting: Int { state.withLock { $0.waiting.count } }

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws(PushStoreError) -> T) async throws(PushStoreError) -> T {
        try await inner.read(body)
    }

    func close() async {
        // Transactions already waiting still run (and fail with `unavailable` once the inner backend is closed).
        await inner.close()
    }

    /// Adds a transaction to the next group; starts running groups if none is running.
    private func enqueue(_ member: Member) {
        let start = state.withLock { $0.add(member) }
        if start {
            // Not the caller's task: see the type's documentation. Nor its commit notice: each member has its own.
            Task { await SQLCommitNotice.$current.withValue(nil) { await self.runGroups() } }
        }
    }

    /// Runs groups until none is waiting: each from when the one before has committed.
    private func runGroups() async {
        while let group = nextGroup() {
            await SQLCommitNotice.runUntilCommitted { await self.run(group) }
        }
    }

    private func nextGroup() -> [Member]? {
        state.withLock { state in
            state.next { waiting in (Array(waiting.prefix(maximumGroup)), Array(waiting.dropFirst(maximumGroup))) }
        }
    }

    /// One database transaction for the group; each member answered after it ended.
    private func run(_ group: [Member]) async {
        let commit: SQLCommit = group.contains { $0.commit == .durable } ? .durable : .deferred
        var failure: PushStoreError?
        let started = ContinuousClock.now
        let bodies = Mutex(Duration.zero)
        // The members whose writes the commit holds (those whose bodies returned), and when it returned.
        let kept = Mutex([Bool](repeating: false, count: group.count))
        let committedAt = Mutex<ContinuousClock.Instant?>(nil)
        let runner = SQLCommitNotice.current
        let notice = SQLCommitNotice {
            committedAt.withLock { $0 = ContinuousClock.now }
            runner?()
            for (member, kept) in zip(group, kept.withLock { $0 }) where kept { member.committed?() }
        }
        let outcome = await SQLCommitNotice.$current.withValue(notice) { () async -> Result<Void, PushStoreError> in
            do throws(PushStoreError) {
                try await inner.transaction(commit) { session throws(PushStoreError) in
                    let bodiesStarted = ContinuousClock.now
                    defer { bodies.withLock { $0 = ContinuousClock.now - bodiesStarted } }
                    if group.count == 1 {
                        // Alone: its own transaction, rolled back when its body throws (its caller gets that error).
                        if await !group[0].run(session) { throw .database(detail: "rolled back") }
                        kept.withLock { $0[0] = true }
                        return
                    }
                    for (index, member) in group.enumerated() {
                        try await session.execute("SAVEPOINT grouped")
                        if await member.run(session) {
                            kept.withLock { $0[index] = true }
                        } else {
                            try await session.execute("ROLLBACK TO grouped")
                        }
                        try await session.execute("RELEASE grouped")
                    }
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = outcome { failure = error }
        let ended = ContinuousClock.now
        let statements = bodies.withLock { $0 }
        let committed = committedAt.withLock { $0 } ?? ended
        groupSize.record(group.count)
        bodiesDuration.record(duration: statements)
        commitDuration.record(duration: committed - started - statements)
        syncDuration.record(duration: ended - committed)
        for member in group { member.finish(failure) }
    }
}
