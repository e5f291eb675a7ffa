import Foundation
import Logging

/// Brings a database to the newest schema version, recording each applied version in
/// `schema_migrations`. Runs in one transaction, so a failed migration leaves the database as it was.
enum Migrator {
    static func migrate(_ backend: any SQLBackend, logger: Logger) async throws(PushStoreError) {
        let dialect = backend.dialect
        let applied = try await backend.transaction { session throws(PushStoreError) -> [Int] in
            if let lock = dialect.migrationLockStatement {
                try await session.execute(lock)
            }
            for statement in dialect.setupStatements {
                try await session.execute(statement)
            }
            try await session.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            let current =
                try await session.first("SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations")?
                .int("version") ?? 0
            guard current <= dialect.migrations.count else {
                throw .unavailable(
                    detail: "the database schema is version \(current), newer than this livepush knows "
                        + "(\(dialect.migrations.count)); upgrade livepush"
                )
            }
            var applied = [Int]()
            for version in (current + 1)..<(dialect.migrations.count + 1) {
                for statement in dialect.migrations[version - 1] {
                    try await session.execute(statement)
                }
                try await session.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.int(version), .date(Date())]
                )
                applied.append(version)
            }
            return applied
        }
        if !applied.isEmpty {
            // A read connection that loaded the schema before the migration sees the change at its next
            // statement; make that this one, so that no query's `SELECT *` is described by the old schema.
            _ = try await backend.read { session throws(PushStoreError) in
                try await session.query("SELECT version FROM schema_migrations LIMIT 1")
            }
        }
        if applied.isEmpty {
            logger.debug("store schema is current", metadata: ["backend": "\(dialect.name)"])
        } else {
            logger.info("store schema migrated", metadata: ["backend": "\(dialect.name)", "versions": "\(applied)"])
        }
    }
}
