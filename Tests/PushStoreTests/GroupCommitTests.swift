import Foundation
import LivePushTesting
import Synchronization
import Testing

@testable import PushStore

/// Group commit (``GroupCommitBackend``) over a real SQLite connection: transactions that arrive while one
/// runs share the next commit, and each still succeeds or fails on its own.
@Suite("PushStore: group commit")
struct GroupCommitTests {
    /// A transaction that waits inside its body until released, so that others queue behind it.
    private final class Hold: Sendable {
        private let state = Mutex<(entered: Bool, released: Bool)>((false, false))

        func enter() async {
            state.withLock { $0.entered = true }
            while !state.withLock({ $0.released }) { await Task.yield() }
        }

        var entered: Bool { state.withLock { $0.entered } }
        func release() { state.withLock { $0.released = true } }
    }

    /// The backend on a new file, with a table `t(x)`.
    private func withBackend(_ body: (GroupCommitBackend, CountingBackend) async throws -> Void) async throws {
        try await withTemporaryDirectory(prefix: "livepush-group-commit") { folder in
            let sqlite = try await SQLiteBackend.open(path: folder.appendingPathComponent("g.sqlite").path, logger: StoreHarness.quietLogger)
            let counting = CountingBackend(inner: sqlite)
            let backend = GroupCommitBackend(counting)
            try await withScopedResource {
                backend
            } stop: { backend in
                await backend.close()
            } _: { backend in
                try await backend.transaction { session throws(PushStoreError) in try await session.execute("CREATE TABLE t (x INTEGER)") }
                try await body(backend, counting)
            }
        }
    }

    @Test func transactionsArrivingTogetherShareOneCommitAndFailAlone() async throws {
        try await withBackend { backend, counting in
            let hold = Hold()
            let before = counting.transactions
            async let first: Void = backend.transaction { session throws(PushStoreError) in
                try await session.execute("INSERT INTO t (x) VALUES (1)")
                await hold.enter()
            }
            while !hold.entered { await Task.yield() }
            // These three wait for the first one's commit, then run as one group.
            async let second: Void = backend.transaction { session throws(PushStoreError) in
                try await session.execute("INSERT INTO t (x) VALUES (2)")
            }
            async let third: Void = backend.transaction { session throws(PushStoreError) in
                try await session.execute("INSERT INTO t (x) VALUES (3)")
                throw PushStoreError.conflict(detail: "the third refuses")
            }
            async let fourth: Int = backend.transaction(.deferred) { session throws(PushStoreError) in
                try await session.execute("INSERT INTO t (x) VALUES (4)")
                return 4
            }
            while backend.waiting < 3 { await Task.yield() }
            hold.release()
            try await first
            try await second
            var refused: PushStoreError?
            do { try await third } catch let error as PushStoreError { refused = error }
            #expect(refused?.isConflict == true, "the third caller gets its own error")
            #expect(try await fourth == 4)
            #expect(counting.transactions - before == 2, "one database transaction for the first, one for the three that waited")
            let rows = try await backend.read { session throws(PushStoreError) in
                try await session.query("SELECT x FROM t ORDER BY x").map { row throws(PushStoreError) in try row.int("x") }
            }
            #expect(rows == [1, 2, 4], "the third one's insert was rolled back, the others committed")
        }
    }

    @Test func aTransactionAloneRollsBackWhenItsBodyThrows() async throws {
        try await withBackend { backend, _ in
            let error = await caught {
                try await backend.transaction { session throws(PushStoreError) in
                    try await session.execute("INSERT INTO t (x) VALUES (1)")
                    throw PushStoreError.invalidInput(field: "x", rule: "refused")
                }
            }
            #expect(error?.invalidField == "x")
            let count = try await backend.read { session throws(PushStoreError) in try await session.first("SELECT COUNT(*) AS n FROM t")?.int("n") }
            #expect(count == 0)
        }
    }
}

/// Counts the database transactions run through it.
private final class CountingBackend: SQLBackend {
    let inner: any SQLBackend
    private let count = Mutex(0)
    var dialect: SQLDialect { inner.dialect }
    var transactions: Int { count.withLock { $0 } }

    init(inner: any SQLBackend) { self.inner = inner }

    func transaction<T: Sendable>(
        _ commit: SQLCommit, _ body: @escaping @Sendable (any SQLSession) async throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> T {
        count.withLock { $0 += 1 }
        return try await inner.transaction(commit, body)
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws(PushStoreError) -> T) async throws(PushStoreError) -> T {
        try await inner.read(body)
    }

    func close() async { await inner.close() }
}
