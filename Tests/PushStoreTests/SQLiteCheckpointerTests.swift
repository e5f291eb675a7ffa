import Foundation
import LivePushTesting
import Testing

@testable import PushStore

/// The write-ahead log is copied into the file by a connection of its own (``SQLiteCheckpointer``), not
/// by the commit that takes it past the threshold.
@Suite("SQLite: the log is checkpointed beside the writer")
struct SQLiteCheckpointerTests {
    /// 60 commits of about a page each take the log far past a threshold of 8 pages. Once the checkpointer
    /// has caught up, the next commit starts the log again from its beginning: without the checkpointer
    /// (SQLite's own automatic checkpoint is at 1,000 pages) the log would hold more than 60 pages.
    @Test(.timeLimit(.minutes(10)))  // a hang guard
    func theLogIsCopiedAndStartsAgainWithoutTheWriterCopyingIt() async throws {
        try await withTemporaryDirectory(prefix: "livepush-sqlite-checkpoint") { folder in
            try await withScopedResource {
                try await SQLiteBackend.open(
                    path: folder.appendingPathComponent("c.sqlite").path, logger: StoreHarness.quietLogger, checkpointThreshold: 8)
            } stop: { backend in
                await backend.close()
            } _: { backend in
                try await backend.transaction(.durable) { session throws(PushStoreError) in
                    try await session.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, filler BLOB)")
                }
                let filler = Data(repeating: 0x2A, count: 3_000)
                for n in 1...60 {
                    try await backend.transaction(.durable) { session throws(PushStoreError) in
                        try await session.execute("INSERT INTO t (n, filler) VALUES (?, ?)", [.int(n), .blob(filler)])
                    }
                }
                #expect(await Self.eventually { backend.checkpoints.completed > 0 && backend.checkpoints.idle })
                try await backend.transaction(.durable) { session throws(PushStoreError) in
                    try await session.execute("INSERT INTO t (n, filler) VALUES (?, ?)", [.int(61), .blob(filler)])
                }
                let status = backend.checkpoints
                #expect(status.lastLog < 8, "the commit after the checkpoint found \(status.lastLog) pages in the log")
                // Read from SQLite itself, not from the hook: the log's length in pages.
                let log = try await backend.connections.writer.first("PRAGMA wal_checkpoint(PASSIVE)")?.int("log")
                #expect((log ?? .max) < 8, "the log holds \(log.map(String.init) ?? "?") pages")
                let count = try await backend.read { session throws(PushStoreError) in
                    try await session.first("SELECT count(*) AS c FROM t")?.int("c")
                }
                #expect(count == 61)
            }
        }
    }

    private static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
