import Foundation
import Logging
import PushStore

/// Opens the store named by `--database`: a `postgres://` (or `postgresql://`) URL, or a SQLite file path.
package enum PushStoreOpener {
    /// The SQLite file used when no database is given.
    package static let defaultDatabase = "livepush.sqlite"

    /// True for a PostgreSQL URL.
    package static func isPostgres(_ database: String) -> Bool {
        database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
    }

    /// Opens (and migrates) the store. A SQLite file's directory is created when missing.
    package static func open(_ database: String, logger: Logger) async throws(PushStoreError) -> any PushStore {
        if isPostgres(database) {
            return try await PostgresPushStore(url: database, logger: logger)
        }
        let directory = URL(fileURLWithPath: database).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw .unavailable(detail: "could not create the directory '\(directory)' for the SQLite database: \(error.localizedDescription)")
            }
        }
        return try await SQLitePushStore(path: database, logger: logger)
    }

    /// The database for logs: a PostgreSQL URL without its password.
    package static func redacted(_ database: String) -> String {
        guard isPostgres(database), var components = URLComponents(string: database) else { return database }
        if components.password != nil { components.password = "***" }
        return components.string ?? "postgres://…"
    }
}
