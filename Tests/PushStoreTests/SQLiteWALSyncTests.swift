import Foundation
import LivePushTesting
import Synchronization
import Testing

@testable import PushStore

/// Durable SQLite transactions are answered once the log is synced after their COMMIT
/// (``SQLiteWALSyncer``), while the writer goes on: each test holds the sync until it releases it.
@Suite("SQLite: the log is synced after the commit, off the writer")
struct SQLiteWALSyncTests {
    /// A sync of the log that waits, on the syncer's thread, until the test releases it.
    private final class HeldSync: @unchecked Sendable {
        // @unchecked: every field is behind `condition`'s lock.
        private let condition = NSCondition()
        private var started = 0
        private var released = 0
        private var failures = Set<Int>()
        /// While false, syncs complete at once.
        private var holding: Bool

        init(holding: Bool = true) {
            self.holding = holding
        }

        /// Holds the syncs that begin from now on.
        func hold() {
            condition.lock()
            holding = true
            released = started
            condition.unlock()
        }

        var operation: SQLiteWALSyncer.Operation { { self.sync() } }

        /// The syncs begun so far (a held one included).
        var begun: Int {
            condition.lock()
            defer { condition.unlock() }
            return started
        }

        /// Lets the next held sync complete, failing when `failing`.
        func release(failing: Bool = false) {
            condition.lock()
            released += 1
            if failing { failures.insert(released) }
            condition.broadcast()
            condition.unlock()
        }

        private func sync() -> Result<Void, PushStoreError> {
            condition.lock()
            defer { condition.unlock() }
            started += 1
            let number = started
            if !holding { released = number }
            while released < number { condition.wait() }
            return failures.contains(number) ? .failure(.unavailable(detail: "the disk refused")) : .success(())
        }
    }

    /// Set once: a transaction answered, or told it committed.
    private final class Flag: Sendable {
        private let state = Mutex(false)
        var isSet: Bool { state.withLock { $0 } }
        func set() { state.withLock { $0 = true } }
    }

    /// A backend on a new file whose log syncs wait for `sync`, with a table `t(x)`.
    private func withBackend(_ sync: HeldSync, _ body: (SQLiteBackend) async throws -> Void) async throws {
        try await withTemporaryDirectory(prefix: "livepush-wal-sync") { folder in
            try await withScopedResource {
                try await SQLiteBackend.open(
                    path: folder.appendingPathComponent("s.sqlite").path, logger: StoreHarness.quietLogger, syncLog: sync.operation)
            } stop: { backend in
                await backend.close()
            } _: { backend in
                try await backend.transaction(.deferred) { session throws(PushStoreError) in
                    try await session.execute("CREATE TABLE t (x INTEGER)")
                }
                try await body(backend)
            }
        }
    }

    /// A durable insert of `x` in a task: `committed` is set when its COMMIT returned, `answered` when its
    /// caller was answered.
    private func insert(
        _ x: Int, into backend: any SQLBackend, committed: Flag = Flag(), answered: Flag = Flag()
    ) -> Task<Void, any Error> {
        Task {
            try await SQLCommitNotice.$current.withValue(SQLCommitNotice { committed.set() }) {
                try await backend.transaction(.durable) { session throws(PushStoreError) in
                    try await session.execute("INSERT INTO t (x) VALUES (?)", [.int(x)])
                }
            }
            answered.set()
        }
    }

    private static func isUnavailable(_ error: PushStoreError?) -> Bool {
        if case .unavailable? = error { return true }
        return false
    }

    private func rows(_ backend: any SQLBackend) async throws -> [Int] {
        try await backend.read { session throws(PushStoreError) in
            try await session.query("SELECT x FROM t ORDER BY x").map { row throws(PushStoreError) in try row.int("x") }
        }
    }

    @Test(.timeLimit(.minutes(2)))  // a hang guard
    func aDurableTransactionWaitsForItsSyncWhileTheNextOnesCommitAndShareTheNextSync() async throws {
        let sync = HeldSync()
        try await withBackend(sync) { backend in
            #expect(sync.begun == 0, "a deferred transaction is answered without a sync")
            let firstAnswered = Flag()
            let first = insert(1, into: backend, answered: firstAnswered)
            await eventually { sync.begun == 1 }
            // The first one's sync is held: the writer goes on.
            try await backend.transaction(.deferred) { session throws(PushStoreError) in
                try await session.execute("INSERT INTO t (x) VALUES (2)")
            }
            let (secondCommitted, thirdCommitted) = (Flag(), Flag())
            let (secondAnswered, thirdAnswered) = (Flag(), Flag())
            let second = insert(3, into: backend, committed: secondCommitted, answered: secondAnswered)
            let third = insert(4, into: backend, committed: thirdCommitted, answered: thirdAnswered)
            await eventually { secondCommitted.isSet && thirdCommitted.isSet }
            #expect(try await rows(backend) == [1, 2, 3, 4], "committed and seen while the first sync is held")
            #expect(!firstAnswered.isSet, "not answered before its sync completed")
            #expect(sync.begun == 1)

            sync.release()
            try await first.value
            #expect(!secondAnswered.isSet && !thirdAnswered.isSet, "committed after the first sync began: not covered by it")
            await eventually { sync.begun == 2 }
            sync.release()
            try await second.value
            try await third.value
            #expect(backend.logSyncs == 2, "one sync for the two that committed during the first")
            #expect(sync.begun == 2)
        }
    }

    @Test(.timeLimit(.minutes(2)))  // a hang guard
    func aFailedSyncFailsItsWaitersAndRefusesLaterWrites() async throws {
        let sync = HeldSync()
        try await withBackend(sync) { backend in
            let first = insert(1, into: backend)
            await eventually { sync.begun == 1 }
            let secondCommitted = Flag()
            let second = insert(2, into: backend, committed: secondCommitted)
            await eventually { secondCommitted.isSet }
            sync.release(failing: true)
            for waiter in [first, second] {
                let failure = await caught { try await waiter.value }
                #expect(Self.isUnavailable(failure), "a waiter was answered \(String(describing: failure)) after a failed sync")
            }
            #expect(sync.begun == 1, "no sync after a failed one: what it left is unknown")
            let refused = await caught {
                try await backend.transaction(.deferred) { session throws(PushStoreError) in
                    try await session.execute("INSERT INTO t (x) VALUES (3)")
                }
            }
            #expect(Self.isUnavailable(refused), "a write after a failed sync was answered \(String(describing: refused))")
            let stored = try await rows(backend)
            #expect(stored == [1, 2], "reads go on")
        }
    }

    @Test(.timeLimit(.minutes(2)))  // a hang guard
    func closingAnswersATransactionWaitingForItsSync() async throws {
        let sync = HeldSync()
        try await withTemporaryDirectory(prefix: "livepush-wal-sync") { folder in
            let path = folder.appendingPathComponent("s.sqlite").path
            let backend = try await SQLiteBackend.open(path: path, logger: StoreHarness.quietLogger, syncLog: sync.operation)
            try await backend.transaction(.deferred) { session throws(PushStoreError) in
                try await session.execute("CREATE TABLE t (x INTEGER)")
            }
            let waiting = insert(1, into: backend)
            await eventually { sync.begun == 1 }
            let closed = Flag()
            let closing = Task {
                await backend.close()
                closed.set()
            }
            #expect(!closed.isSet)
            sync.release()
            try await waiting.value
            await closing.value
            let refused = await caught {
                try await backend.transaction(.durable) { session throws(PushStoreError) in
                    try await session.execute("INSERT INTO t (x) VALUES (2)")
                }
            }
            #expect(Self.isUnavailable(refused), "a write after closing was answered \(String(describing: refused))")
        }
    }

    /// The next group of ``GroupCommitBackend`` runs while the one before waits for its sync.
    @Test(.timeLimit(.minutes(2)))  // a hang guard
    func theNextGroupCommitsWhileTheOneBeforeWaitsForItsSync() async throws {
        let sync = HeldSync()
        try await withBackend(sync) { sqlite in
            let backend = GroupCommitBackend(sqlite)
            let firstAnswered = Flag()
            let first = insert(1, into: backend, answered: firstAnswered)
            await eventually { sync.begun == 1 }
            let secondCommitted = Flag()
            let second = insert(2, into: backend, committed: secondCommitted)
            await eventually { secondCommitted.isSet }
            #expect(!firstAnswered.isSet)
            sync.release()
            try await first.value
            await eventually { sync.begun == 2 }
            sync.release()
            try await second.value
            #expect(try await rows(backend) == [1, 2])
        }
    }

    /// The next group of registrations (``WriteGroups``) is stored while the one before waits for its sync.
    @Test(.timeLimit(.minutes(2)))  // a hang guard
    func theNextRegistrationIsStoredWhileTheOneBeforeWaitsForItsSync() async throws {
        let sync = HeldSync(holding: false)
        try await withTemporaryDirectory(prefix: "livepush-wal-sync") { folder in
            let sqlite = try await SQLiteBackend.open(
                path: folder.appendingPathComponent("s.sqlite").path, logger: StoreHarness.quietLogger, syncLog: sync.operation)
            try await withScopedResource {
                try await SQLPushStore(backend: GroupCommitBackend(sqlite), logger: StoreHarness.quietLogger)
            } stop: { store in
                await store.close()
            } _: { store in
                sync.hold()
                let begun = sync.begun
                let first = Task { try await store.register(Fixture.registration("first", token: Fixture.token())) }
                await eventually { sync.begun == begun + 1 }
                let second = Task { try await store.register(Fixture.registration("second", token: Fixture.token())) }
                try await eventually { try await store.activityCount() == 2 }
                sync.release()
                _ = try await first.value
                await eventually { sync.begun == begun + 2 }
                sync.release()
                _ = try await second.value
            }
        }
    }

    /// With the real sync (`fdatasync` of the `-wal` file), a durable write is there after closing and
    /// opening again.
    @Test func aSyncedWriteIsThereAfterClosingAndOpeningAgain() async throws {
        try await withTemporaryDirectory(prefix: "livepush-wal-sync") { folder in
            let path = folder.appendingPathComponent("s.sqlite").path
            let backend = try await SQLiteBackend.open(path: path, logger: StoreHarness.quietLogger)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            try await backend.transaction(.durable) { session throws(PushStoreError) in
                try await session.execute("CREATE TABLE t (x INTEGER)")
                try await session.execute("INSERT INTO t (x) VALUES (7)")
            }
            #expect(backend.logSyncs == 1)
            await backend.close()
            let reopened = try await SQLiteBackend.open(path: path, logger: StoreHarness.quietLogger)
            let values = try await rows(reopened)
            await reopened.close()
            #expect(values == [7])
        }
    }
}
