import Foundation
import LivePushTesting
import Testing

@testable import PushStore

/// The write-ahead log is copied into the file by a connection of its own (``SQLiteCheckpointer``), not
/// by the commit that takes it past the threshold.
@Suite("SQLite: the log is checkpointed beside the writer")
struct SQLiteCheckpointerTests {
    /// 60 commits of a few pages each take the log far past a threshold of 8 pages. Each time the
    /// checkpointer has copied the log, the next commit starts it again from its beginning, so once the
    /// checkpointer is idle the log holds what came after its last copy: fewer pages than the threshold (no
    /// commit since asked for a copy) plus those of one more commit, under 16. Without the checkpointer
    /// (SQLite's own automatic checkpoint is at 1,000 pages) it holds every commit's pages, over 150.
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
                await eventually(timeout: .seconds(300)) { backend.checkpoints.completed > 0 && backend.checkpoints.idle }
                try await backend.transaction(.durable) { session throws(PushStoreError) in
                    try await session.execute("INSERT INTO t (n, filler) VALUES (?, ?)", [.int(61), .blob(filler)])
                }
                let status = backend.checkpoints
                #expect(status.lastLog < 16, "the commit after the checkpoint found \(status.lastLog) pages in the log")
                // Read from SQLite itself, not from the hook: the log's length in pages.
                let log = try await backend.connections.writer.first("PRAGMA wal_checkpoint(PASSIVE)")?.int("log")
                #expect((log ?? .max) < 16, "the log holds \(log.map(String.init) ?? "?") pages")
                let count = try await backend.read { session throws(PushStoreError) in
                    try await session.first("SELECT count(*) AS c FROM t")?.int("c")
                }
                #expect(count == 61)
            }
        }
    }
}
