import APNsCore
import Foundation
import LiveActivity
import Logging

/// What the SQLite and PostgreSQL stores share: every ``PushStore`` operation is the same SQL run by
/// ``SQLStoreCore`` over their backend; the subclasses differ only in how they open and close it.
/// Not subclassable outside this module.
public class SQLPushStore: PushStore, @unchecked Sendable {
    // @unchecked: the only state is `core`, an immutable reference to a Sendable value.
    let core: SQLStoreCore

    init(core: SQLStoreCore) {
        self.core = core
    }

    /// Closes the database connections. Later calls throw `unavailable`.
    public func close() async {
        await core.close()
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
        -> ActivityStateChange
    {
        try await core.markEnded(activityId: activityId, at: at, dismissalDate: dismissalDate)
    }

    public func markDismissed(activityId: String, at: Date) async throws(PushStoreError) -> ActivityStateChange {
        try await core.markDismissed(activityId: activityId, at: at)
    }

    public func recordContentState(activityId: String, contentState: JSONValue, timestamp: Date)
        async throws(PushStoreError) -> ActivityRecord
    {
        try await core.recordContentState(activityId: activityId, contentState: contentState, timestamp: timestamp)
    }

    public func recordContentState(_ updates: [(activityId: String, timestamp: Date)], contentState: JSONValue?)
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

    public func dismissEnded(dismissedBy date: Date) async throws(PushStoreError) -> Int {
        try await core.dismissEnded(dismissedBy: date)
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

    public func consumeHighPriority(_ requests: [(activityId: String, limit: Int)], at: Date)
        async throws(PushStoreError) -> [String: BudgetDecision]
    {
        try await core.consumeHighPriority(requests, at: at)
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
