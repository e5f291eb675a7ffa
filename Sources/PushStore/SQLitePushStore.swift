import Foundation
import Logging

/// The embedded store: one SQLite file in WAL mode, created with its schema on first open. Zero setup;
/// for one `livepush serve` process (several processes on one file work, but take turns writing).
package final class SQLitePushStore: SQLPushStore, @unchecked Sendable {
    /// The database file.
    package let path: String

    override package var location: String { path }

    /// Whether ``close()`` deletes the file: a ``temporary(logger:)`` store.
    private let isTemporary: Bool

    /// Opens or creates the database at `path` (its directory must exist) and migrates its schema.
    package convenience init(path: String, logger: Logger = Logger(label: "livepush.store.sqlite"))
        async throws(PushStoreError)
    {
        try await self.init(path: path, isTemporary: false, logger: logger)
    }

    private init(path: String, isTemporary: Bool, logger: Logger) async throws(PushStoreError) {
        try Validation.text(path, field: "path", max: 4096)
        guard path != ":memory:", !path.hasPrefix("file::memory:") else {
            throw .invalidInput(
                field: "path",
                rule: "an in-memory database is not durable; give a file path, or use SQLitePushStore.temporary()")
        }
        self.path = path
        self.isTemporary = isTemporary
        // One writer: transactions that arrive together share a commit (``GroupCommitBackend``).
        let backend = GroupCommitBackend(try await SQLiteBackend.open(path: path, logger: logger))
        try await super.init(backend: backend, logger: logger)
    }

    /// A store in a new file under the temporary directory, deleted (with its WAL files) by ``close()``.
    package static func temporary(logger: Logger = Logger(label: "livepush.store.sqlite")) async throws(PushStoreError)
        -> SQLitePushStore
    {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("livepush-store-\(UUID().lowercased).sqlite").path
        return try await SQLitePushStore(path: path, isTemporary: true, logger: logger)
    }

    /// Closes the database; a temporary store also deletes its files.
    package override func close() async {
        await super.close()
        if isTemporary {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
    }
}
