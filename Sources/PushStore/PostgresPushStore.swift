import APNsCore
import Foundation
import LiveActivity
import Logging

/// The shared store: a PostgreSQL database that several `livepush serve` processes use together.
/// The schema is created (and migrated) on first connect; claims use `FOR UPDATE SKIP LOCKED`, so no
/// push is handed to two processes and none is skipped.
public final class PostgresPushStore: PushStore {
    let core: SQLStoreCore

    /// `host:port/database` of the store (no credentials), for logs and messages.
    public let location: String

    /// Connects to `url` (`postgres://user:password@host:port/database[?sslmode=...]`) and migrates the
    /// schema. With `schema`, the tables live in that PostgreSQL schema (created if missing), so several
    /// deployments can share one database. Throws `invalidInput` for a malformed URL or schema name and
    /// `unavailable` when the database cannot be reached within `connectTimeout`.
    public init(
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
            try await Migrator.migrate(backend, logger: logger)
        } catch {
            await backend.close()
            throw error
        }
        self.core = SQLStoreCore(backend: backend, logger: logger)
        self.location = parsed.redacted
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

    public func close() async {
        await core.close()
    }

    static func isSchemaName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...63).contains(bytes.count), let first = bytes.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_") }
        return isLetter(first) && bytes.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
    }

    public func register(_ registration: ActivityRegistration) async throws(PushStoreError) -> ActivityRecord {
        try await core.register(registration)
    }

    public func rotateToken(activityId: String, newToken: DeviceToken, at: Date) async throws(PushStoreError)
        -> ActivityRecord
    {
        try await core.rotateToken(activityId: activityId, newToken: newToken, at: at)
    }

    public func markEnded(activityId: String, at: Date, dismissalDate: Date?) async throws(PushStoreError)
        -> ActivityRecord
    {
        try await core.markEnded(activityId: activityId, at: at, dismissalDate: dismissalDate)
    }

    public func markDismissed(activityId: String, at: Date) async throws(PushStoreError) -> ActivityRecord {
        try await core.markDismissed(activityId: activityId, at: at)
    }

    public func recordContentState(activityId: String, contentState: JSONValue, timestamp: Date)
        async throws(PushStoreError) -> ActivityRecord
    {
        try await core.recordContentState(activityId: activityId, contentState: contentState, timestamp: timestamp)
    }

    public func recordContentState(_ updates: [(activityId: String, timestamp: Date)], contentState: JSONValue)
        async throws(PushStoreError) -> Int
    {
        try await core.recordContentState(updates, contentState: contentState)
    }

    public func markEnded(activityIds: [String], at: Date, dismissalDate: Date?) async throws(PushStoreError)
        -> [String]
    {
        try await core.markEnded(activityIds: activityIds, at: at, dismissalDate: dismissalDate)
    }

    public func markTokenInvalid(token: DeviceToken, reason: String, at: Date) async throws(PushStoreError)
        -> ActivityRecord?
    {
        try await core.markTokenInvalid(token: token, reason: reason, at: at)
    }

    public func retiredToken(_ token: DeviceToken) async throws(PushStoreError) -> RetiredTokenRecord? {
        try await core.retiredToken(token)
    }

    public func activity(id: String) async throws(PushStoreError) -> ActivityRecord? {
        try await core.activity(id: id)
    }

    public func activities(ids: [String]) async throws(PushStoreError) -> [ActivityRecord] {
        try await core.activities(ids: ids)
    }

    public func activities(inGroup group: String) async throws(PushStoreError) -> [ActivityRecord] {
        try await core.activities(inGroup: group)
    }

    public func activities(ofUser userId: String) async throws(PushStoreError) -> [ActivityRecord] {
        try await core.activities(ofUser: userId)
    }

    public func activeActivities(olderThan date: Date) async throws(PushStoreError) -> [ActivityRecord] {
        try await core.activeActivities(olderThan: date)
    }

    public func forgetEnded(before date: Date) async throws(PushStoreError) -> Int {
        try await core.forgetEnded(before: date)
    }

    public func activityCount() async throws(PushStoreError) -> Int {
        try await core.activityCount()
    }

    public func upsertPushToStartToken(_ registration: PushToStartRegistration) async throws(PushStoreError)
        -> PushToStartTokenRecord
    {
        try await core.upsertPushToStartToken(registration)
    }

    public func pushToStartTokens(forUser userId: String, attributesType: String) async throws(PushStoreError)
        -> [PushToStartTokenRecord]
    {
        try await core.pushToStartTokens(forUser: userId, attributesType: attributesType)
    }

    public func pushToStartToken(id: UUID) async throws(PushStoreError) -> PushToStartTokenRecord? {
        try await core.pushToStartToken(id: id)
    }

    public func markPushToStartTokenInvalid(token: DeviceToken, reason: String, at: Date)
        async throws(PushStoreError) -> [PushToStartTokenRecord]
    {
        try await core.markPushToStartTokenInvalid(token: token, reason: reason, at: at)
    }

    public func enqueue(_ items: [OutboxItem]) async throws(PushStoreError) -> EnqueueResult {
        try await core.enqueue(items)
    }

    public func claim(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError)
        -> [OutboxItem]
    {
        try await core.claim(owner: owner, limit: limit, now: now, lease: lease)
    }

    public func complete(pushId: UUID, owner: String, result: DeliveryResult, at: Date) async throws(PushStoreError)
        -> DeliveryRecord
    {
        try await core.complete(pushId: pushId, owner: owner, result: result, at: at)
    }

    public func complete(owner: String, completions: [PushCompletion], at: Date) async throws(PushStoreError)
        -> CompletionReport
    {
        try await core.complete(owner: owner, completions: completions, at: at)
    }

    public func reschedule(pushId: UUID, owner: String, nextAttemptAt: Date, attempts: Int, lastError: String)
        async throws(PushStoreError)
    {
        try await core.reschedule(
            pushId: pushId, owner: owner, nextAttemptAt: nextAttemptAt, attempts: attempts, lastError: lastError)
    }

    public func release(owner: String) async throws(PushStoreError) -> Int {
        try await core.release(owner: owner)
    }

    public func outboxDepth() async throws(PushStoreError) -> Int {
        try await core.outboxDepth()
    }

    public func pendingItems(activityId: String) async throws(PushStoreError) -> [OutboxItem] {
        try await core.pendingItems(activityId: activityId)
    }

    public func deliveries(activityId: String, limit: Int) async throws(PushStoreError) -> [DeliveryRecord] {
        try await core.deliveries(activityId: activityId, limit: limit)
    }

    public func recordHighPriority(activityId: String, at: Date) async throws(PushStoreError) {
        try await core.recordHighPriority(activityId: activityId, at: at)
    }

    public func highPriorityCount(activityId: String, since: Date) async throws(PushStoreError) -> Int {
        try await core.highPriorityCount(activityId: activityId, since: since)
    }

    public func consumeHighPriority(activityId: String, at: Date, limit: Int) async throws(PushStoreError)
        -> BudgetDecision
    {
        try await core.consumeHighPriority(activityId: activityId, at: at, limit: limit)
    }

    public func createApiKey(name: String, scope: ApiKeyScope, sha256Hash: String, at: Date)
        async throws(PushStoreError) -> ApiKeyRecord
    {
        try await core.createApiKey(name: name, scope: scope, sha256Hash: sha256Hash, at: at)
    }

    public func apiKey(byHash sha256Hash: String) async throws(PushStoreError) -> ApiKeyRecord? {
        try await core.apiKey(byHash: sha256Hash)
    }

    public func apiKeys() async throws(PushStoreError) -> [ApiKeyRecord] {
        try await core.apiKeys()
    }

    public func revokeApiKey(id: UUID, at: Date) async throws(PushStoreError) -> ApiKeyRecord {
        try await core.revokeApiKey(id: id, at: at)
    }
}
