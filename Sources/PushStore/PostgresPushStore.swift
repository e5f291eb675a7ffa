import Foundation
import Logging

/// The shared store: a PostgreSQL database that several `livepush serve` processes use together.
/// The schema is created (and migrated) on first connect; claims use `FOR UPDATE SKIP LOCKED`, so no
/// push is handed to two processes and none is skipped.
package final class PostgresPushStore: SQLPushStore, @unchecked Sendable {
    /// The URL without its password (and the schema, when one was given).
    private let redactedURL: String

    override package var location: String { redactedURL }

    /// Connects to `url` (`postgres://user:password@host:port/database[?sslmode=...]`) and migrates the
    /// schema. With `schema`, the tables live in that PostgreSQL schema (created if missing), so several
    /// deployments can share one database. Throws `invalidInput` for a malformed URL or schema name and
    /// `unavailable` when the database cannot be reached within `connectTimeout`.
    package init(
        url: String, schema: String? = nil, maximumConnections: Int = 20, connectTimeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "livepush.store.postgres")
    ) async throws(PushStoreError) {
        guard (1...1000).contains(maximumConnections) else {
            throw .invalidInput(field: "maximumConnections", rule: "is \(maximumConnections); give 1 to 1000")
        }
        var parsed = try PostgresURL.parse(url)
        parsed.configuration.options.maximumConnections = maximumConnections
        parsed.configuration.options.connectTimeout = connectTimeout
        var dialect = PostgresBackend.postgresDialect
        if let schema {
            guard Self.isSchemaName(schema) else {
                throw .invalidInput(
                    field: "schema", rule: "'\(schema)' is not accepted; use 1 to 63 of a-z, 0-9 and _, starting with a letter or _")
            }
            parsed.configuration.options.additionalStartupParameters.append(("search_path", schema))
            dialect.setupStatements = ["CREATE SCHEMA IF NOT EXISTS \(schema)"]
            dialect.migrationLockStatement = PostgresBackend.migrationLock(schema: schema)
            parsed.redacted += " (schema \(schema))"
        }
        let backend = PostgresBackend(
            configuration: parsed.configuration, dialect: dialect, redactedURL: parsed.redacted, logger: logger)
        do {
            // Reaching the server is bounded by `connectTimeout`; the migration itself may wait for
            // another process's migration.
            try await Self.withTimeout(connectTimeout, location: parsed.redacted) { () async throws(PushStoreError) in
                _ = try await backend.read { session throws(PushStoreError) in try await session.query("SELECT 1 AS ok") }
            }
        } catch {
            await backend.close()
            throw error
        }
        redactedURL = parsed.redacted
        try await super.init(backend: backend, logger: logger)
    }

    /// Runs `body`, failing with `unavailable` if it has not finished after `timeout` (the pool keeps
    /// retrying a database that does not answer, so opening would otherwise wait forever).
    private static func withTimeout(
        _ timeout: Duration, location: String, _ body: @escaping @Sendable () async throws(PushStoreError) -> Void
    ) async throws(PushStoreError) {
        let outcome = await withTaskGroup(of: PushStoreError?.self) { group in
            group.addTask {
                do throws(PushStoreError) {
                    try await body()
                    return nil
                } catch {
                    return error
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .unavailable(detail: "PostgreSQL at \(location) did not answer within \(timeout)")
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let outcome { throw outcome }
    }

    /// Drops `schema` with everything in it (a test's own schema, when the test ends). Refuses a name
    /// that is not a schema name.
    package func dropSchema(_ schema: String) async throws(PushStoreError) {
        guard Self.isSchemaName(schema) else { throw .invalidInput(field: "schema", rule: "'\(schema)' is not a schema name") }
        try await backend.transaction { session throws(PushStoreError) in
            try await session.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        }
    }

    static func isSchemaName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...63).contains(bytes.count), let first = bytes.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_") }
        return isLetter(first) && bytes.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
    }
}
