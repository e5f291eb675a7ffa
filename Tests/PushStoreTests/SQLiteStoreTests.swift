import Foundation
import Testing

@testable import PushStore

@Suite("SQLitePushStore")
struct SQLiteStoreTests {
    @Test
    func pendingItemsSurviveClosingAndReopening() async throws {
        let harness = StoreHarness.make(.sqlite)
        let store = try await harness.open()
        _ = try await store.register(Fixture.registration("a"))
        let items = (0..<50).map { Fixture.update("a-\($0)", score: $0) }
        _ = try await store.enqueue(items)
        _ = try await store.claim(owner: "crashed", limit: 5, now: Fixture.start, lease: 30)
        await store.close()

        let reopened = try await harness.open()
        #expect(try await reopened.outboxDepth() == 50)
        #expect(try await reopened.activity(id: "a")?.activityId == "a")
        // The 5 claimed by the process that went away come back when their lease ends.
        #expect(try await reopened.claim(owner: "next", limit: 100, now: Fixture.start + 1, lease: 30).count == 45)
        #expect(try await reopened.claim(owner: "next", limit: 100, now: Fixture.start + 30, lease: 30).count == 5)
        await reopened.close()
        try await harness.destroy()
    }

    @Test
    func usesWALAndRecordsTheSchemaVersion() async throws {
        try await withStore(.sqlite) { store, harness in
            let sqlite = try #require(store as? SQLitePushStore)
            let (mode, versions) = try await sqlite.core.backend.transaction { session throws(PushStoreError) in
                let mode = try await session.first("PRAGMA journal_mode")?.optionalString("journal_mode")
                let versions = try await session.query("SELECT version FROM schema_migrations ORDER BY version")
                    .map { row throws(PushStoreError) in try row.int("version") }
                return (mode, versions)
            }
            #expect(mode == "wal")
            #expect(versions == Array(1...Schema.versions.count))
            #expect(FileManager.default.fileExists(atPath: harness.location + "-wal"))
        }
    }

    @Test
    func temporaryStoresDeleteTheirFile() async throws {
        let store = try await SQLitePushStore.temporary(logger: StoreHarness.quietLogger)
        #expect(FileManager.default.fileExists(atPath: store.path))
        _ = try await store.register(Fixture.registration("a"))
        await store.close()
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test
    func badPathsAreRefusedClearly() async throws {
        let memory = await caught { try await SQLitePushStore(path: ":memory:") }
        #expect(memory?.invalidField == "path")
        let missingDirectory = await caught {
            try await SQLitePushStore(path: "/nonexistent-livepush-dir-\(UUID().uuidString)/store.sqlite")
        }
        guard case .unavailable(let detail) = missingDirectory else {
            Issue.record("expected unavailable, got \(String(describing: missingDirectory))")
            return
        }
        #expect(detail.contains("nonexistent-livepush-dir"))
    }
}
