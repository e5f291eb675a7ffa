import APNsCore
import Foundation
import LiveActivity
import Logging

/// The embedded store: one SQLite file in WAL mode, created with its schema on first open. Zero setup;
/// for one `livepush serve` process (several processes on one file work, but take turns writing).
public final class SQLitePushStore: SQLPushStore, @unchecked Sendable {
    private let temporaryPath: String?

    /// The database file.
    public let path: String

    /// Opens or creates the database at `path` (its directory must exist) and migrates its schema.
    public init(path: String, logger: Logger = Logger(label: "livepush.store.sqlite")) async throws(PushStoreError) {
        try Validation.text(path, field: "path", max: 4096)
        guard path != ":memory:", !path.hasPrefix("file::memory:") else {
            throw .invalidInput(
                field: "path",
                rule: "an in-memory database is not durable; give a file path, or use SQLitePushStore.temporary()")
        }
        let backend = try await SQLiteBackend.open(path: path, logger: logger)
        do {
            try await Migrator.migrate(backend, logger: logger)
        } catch {
            await backend.close()
            throw error
        }
        self.path = path
        self.temporaryPath = nil
        super.init(core: SQLStoreCore(backend: backend, logger: logger))
    }

    private init(core: SQLStoreCore, path: String, temporaryPath: String?) {
        self.path = path
        self.temporaryPath = temporaryPath
        super.init(core: core)
    }

    /// A store in a new file under the temporary directory, deleted (with its WAL files) by ``close()``.
    public static func temporary(logger: Logger = Logger(label: "livepush.store.sqlite")) async throws(PushStoreError)
        -> SQLitePushStore
    {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("livepush-store-\(UUID().uuidString.lowercased()).sqlite").path
        let store = try await SQLitePushStore(path: path, logger: logger)
        return SQLitePushStore(core: store.core, path: path, temporaryPath: path)
    }

    /// Closes the database; a temporary store also deletes its files.
    public override func close() async {
        await super.close()
        if let temporaryPath {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: temporaryPath + suffix)
            }
        }
    }
}
