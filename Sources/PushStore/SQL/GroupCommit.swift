import Foundation
import Metrics
import Synchronization

/// Group commit over a backend with one writer (SQLite): transactions that arrive while one is running
/// wait, then run together as one database transaction with one commit, and so one fsync, instead of one
/// each. 32 API requests that write at once cost one commit, not 32 (a durable SQLite commit is an fsync,
/// 3.6 ms on the benchmark machine, against tens of microseconds for a statement).
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
/// does not cancel the statements of the others.
///
/// Measured: `livepush_store_group_transactions` (transactions per group) and
/// `livepush_store_group_duration_seconds` with `part` "bodies" (the members' statements) and "commit"
/// (the rest of the group's time: BEGIN, COMMIT and its fsync).
final class GroupCommitBackend: SQLBackend {
    let dialect: SQLDialect
    private let inner: any SQLBackend
    private let maximumGroup: Int
    private let state = Mutex(GroupQueue<Member>())
    private let groupSize: Recorder
    private let bodiesDuration: Metrics.Timer
    private let commitDuration: Metrics.Timer

    /// One caller's transaction, its result type erased.
    private struct Member: Sendable {
        var commit: SQLCommit
        /// Runs the caller's body; true when it returned (its value is kept), false when it threw (its error
        /// is kept).
        var run: @Sendable (any SQLSession) async -> Bool
        /// Answers the caller once the group has ended: with what its body returned or threw, or with the
        /// group's failure when the shared transaction did not commit.
        var finish: @Sendable (PushStoreError?) -> Void
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
                })
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
            // Not the caller's task: see the type's documentation.
            Task { await self.runGroups() }
        }
    }

    /// Runs groups until none is waiting.
    private func runGroups() async {
        while let group = nextGroup() {
            await run(group)
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
        do throws(PushStoreError) {
            try await inner.transaction(commit) { session throws(PushStoreError) in
                let bodiesStarted = ContinuousClock.now
                defer { bodies.withLock { $0 = ContinuousClock.now - bodiesStarted } }
                if group.count == 1 {
                    // Alone: its own transaction, rolled back when its body throws (its caller gets that error).
                    if await !group[0].run(session) { throw .database(detail: "rolled back") }
                    return
                }
                for member in group {
                    try await session.execute("SAVEPOINT grouped")
                    if await !member.run(session) {
                        try await session.execute("ROLLBACK TO grouped")
                    }
                    try await session.execute("RELEASE grouped")
                }
            }
        } catch {
            failure = error
        }
        let statements = bodies.withLock { $0 }
        groupSize.record(group.count)
        bodiesDuration.record(duration: statements)
        commitDuration.record(duration: ContinuousClock.now - started - statements)
        for member in group { member.finish(failure) }
    }
}
