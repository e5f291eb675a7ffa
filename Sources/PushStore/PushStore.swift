import APNsCore
import Foundation
import LiveActivity

/// The durable state of `livepush serve`: activities and their tokens, push-to-start tokens, the outbox
/// of accepted pushes, delivery history, priority budgets, API keys, shared secrets, idempotency records
/// and the webhook's queue, each concern its own protocol.
///
/// Implementations (``SQLitePushStore``, ``PostgresPushStore``) pass the same conformance tests. Every
/// method is atomic: it either completes or changes nothing. Several processes may share one
/// PostgreSQL store: ``OutboxStore/claim(owner:limit:now:lease:)`` never hands one item to two claimers.
package protocol PushStore: ActivityStore, PushToStartStore, OutboxStore, DeliveryHistory, PriorityBudget, PushToStartBudget, APIKeyStore,
    ServerSecretStore, IdempotencyStore, WebhookOutbox, ChannelStore, GroupSendStore, AudienceStartStore, AppTokenStandingStore,
    EnvironmentBindingStore, ConsoleStore, RenewalStore, AcceptanceStore, ContentStateShapeStore, LiveActivityResourceStore
{
    /// Closes the database connections. Later calls throw `unavailable`.
    func close() async
}

/// Who may register over an activity that is already stored.
package enum RegistrationOwnership: Sendable, Hashable {
    /// Any registration replaces the stored one, owner included (a development key acts for anyone).
    case replace
    /// Only a registration for the stored activity's own user changes it.
    case keep
}

extension ActivityStore {
    /// ``register(_:ownership:)`` that may replace the owner (development keys, tests).
    package func register(_ registration: ActivityRegistration) async throws(PushStoreError) -> ActivityRecord {
        try await register(registration, ownership: .replace)
    }

    /// ``activities(ids:contentStates:)`` with their content-states.
    package func activities(ids: [String]) async throws(PushStoreError) -> [ActivityRecord] {
        try await activities(ids: ids, contentStates: true)
    }
}

/// Registered Live Activities: their tokens, state and last content.
package protocol ActivityStore: Sendable {
    /// Stores an activity or updates it (by `activityId`). A new token replaces the current one, which
    /// is retired; the same token again makes it valid again. State, start and content are kept.
    /// Throws `conflict` for a retired token or a token that another activity holds. With
    /// ``RegistrationOwnership/keep`` an activity stored for another user (or none) is not touched:
    /// `taken` is thrown, decided inside the write's transaction, so of two users racing for one new id
    /// exactly one owns it.
    func register(_ registration: ActivityRegistration, ownership: RegistrationOwnership) async throws(PushStoreError)
        -> ActivityRecord

    /// Replaces an activity's token; the old one is retired and never used again. The activity's current
    /// token given again makes it valid again (as ``register(_:)`` does): the app reports it as current.
    func rotateToken(activityID: String, newToken: DeviceToken, at: Date) async throws(PushStoreError) -> ActivityRecord

    /// Marks an activity ended (it may stay visible until `dismissalDate`). `endedNow` in the answer says
    /// whether this call took it out of `active` (true for exactly one of concurrent calls). With a
    /// `journal`, that end's `activity.ended` event is stored in the same transaction.
    func markEnded(activityID: String, at: Date, dismissalDate: Date?, journal: WebhookJournal?) async throws(PushStoreError)
        -> ActivityStateChange

    /// Marks many activities ended in one transaction (a group end): for each the same as
    /// ``markEnded(activityID:at:dismissalDate:)``, except that an activity that is not stored is skipped.
    /// Returns the ids of the activities this call took out of `active`, in the order given (with a
    /// `journal`, their events are stored in the same transaction).
    func markEnded(activityIDs: [String], at: Date, dismissalDate: Date?, journal: WebhookJournal?) async throws(PushStoreError)
        -> [String]

    /// Marks an activity dismissed (no longer on the Lock Screen); `endedNow` as for ``markEnded(activityID:at:dismissalDate:)``.
    func markDismissed(activityID: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError) -> ActivityStateChange

    /// Records one content-state accepted for many activities (a single or group send) in one
    /// transaction: each activity takes it with its timestamp unless it holds a newer one; an activity
    /// that is not stored is skipped, and a nil `contentState` (an end without a final state) keeps each
    /// activity's stored state while recording the timestamp. Returns how many activities were changed.
    /// `acceptedAt` (when the push was accepted, to the fraction of a second) is kept as the newest
    /// acceptance of each activity changed: a group send expanded later compares it with its own.
    func recordContentState(_ updates: [(activityID: String, timestamp: Date)], contentState: JSONValue?, acceptedAt: Date)
        async throws(PushStoreError) -> Int

    /// Marks the activity whose *current* token is `token` as having an invalid token, `at` being when the
    /// refused push was sent. Returns that activity when this call changed it; nil when no activity holds
    /// `token` as a valid current token (retired tokens never match) or when the app reported the token
    /// again after `at` (APNs' answer to an older push does not overrule the app). With a `journal`, the
    /// `token.invalid` event is stored in the same transaction. A token value is held by one principal across
    /// kinds: push-to-start records of the same value are marked invalid too (as
    /// ``PushToStartStore/markPushToStartTokenInvalid(token:reason:at:journal:)`` would).
    func markTokenInvalid(token: DeviceToken, reason: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError)
        -> ActivityRecord?

    func activity(id: String) async throws(PushStoreError) -> ActivityRecord?

    /// The activity a single update or end is for, with its app's content-state shape for its attributes type
    /// (nil when none is stored), read in one statement: the single send's one read. Its `lastContentState`
    /// is nil, not read. Nil when no activity `id` is stored.
    func activityToSend(id: String) async throws(PushStoreError) -> ActivityToSend?

    /// The activities among `ids` a batch of updates or ends is for, each with its app's content-state shape
    /// and, when a renewal linked a successor to it, that successor's id (`renewedBy`): a batch's one read,
    /// one statement per 500 ids. Without content-states; ids not stored are left out; in no particular order.
    func activitiesToSend(ids: [String]) async throws(PushStoreError) -> [ActivityToSend]

    /// The stored activities among `ids`, read together (what a delivery worker needs for a batch), in
    /// no particular order; ids that are not stored are left out. Without `contentStates`, each record's
    /// `lastContentState` is nil, not read: the send path never uses it, and parsing every activity's
    /// stored state was a cost of each batch.
    func activities(ids: [String], contentStates: Bool) async throws(PushStoreError) -> [ActivityRecord]

    /// Every activity in a group, whatever its state, ordered by id.
    func activities(inGroup group: String) async throws(PushStoreError) -> [ActivityRecord]

    /// Active activities that started at or before `date` (for the 8-hour limit), ordered by start.
    func activeActivities(olderThan date: Date) async throws(PushStoreError) -> [ActivityRecord]

    /// Marks dismissed every ended activity whose dismissal date is at or before `date` (the system has
    /// removed it from the Lock Screen by then). Returns how many were marked.
    func dismissEnded(dismissedBy date: Date) async throws(PushStoreError) -> Int

    /// Deletes ended and dismissed activities whose end and dismissal date are both before `date`,
    /// with their retired tokens, delivery history and budget entries. Returns how many were deleted.
    func forgetEnded(before date: Date) async throws(PushStoreError) -> Int
}

/// The push-to-start tokens of users' devices, one per device and attributes type.
package protocol PushToStartStore: Sendable {
    /// Stores the token of a device for an attributes type, replacing the one stored before (the
    /// record keeps its id; the token becomes valid). A token value that another user holds as a valid
    /// token is refused with `taken` (checked under a lock on the value): it moves only once its holder
    /// released it (``releasePushToStartTokens(userID:deviceID:)``, or a sign-out).
    func upsertPushToStartToken(_ registration: PushToStartRegistration) async throws(PushStoreError) -> PushToStartTokenRecord

    /// Deletes a user's push-to-start tokens, of one device or (nil) of all; returns how many.
    func releasePushToStartTokens(userID: String, deviceID: String?) async throws(PushStoreError) -> Int

    /// A user's push-to-start tokens for an attributes type, valid or not, ordered by device.
    func pushToStartTokens(forUser userID: String, attributesType: String) async throws(PushStoreError) -> [PushToStartTokenRecord]

    func pushToStartToken(id: UUID) async throws(PushStoreError) -> PushToStartTokenRecord?

    /// Marks valid push-to-start tokens equal to `token` invalid, `at` being when the refused push was sent
    /// (a token stored again after that stays valid); returns the records this call changed (with a
    /// `journal`, their `token.invalid` events are stored in the same transaction). An activity whose
    /// current token has the same value is marked invalid too: APNs refused the value, whoever holds it.
    func markPushToStartTokenInvalid(token: DeviceToken, reason: String, at: Date, journal: WebhookJournal?)
        async throws(PushStoreError) -> [PushToStartTokenRecord]
}

/// Accepted pushes waiting to be sent, claimed by workers and completed into the delivery history.
package protocol OutboxStore: Sendable {
    /// Stores a batch of accepted pushes in one transaction: all or none. A routine update replaces a
    /// routine update for the same activity that is still waiting unclaimed (or earlier in the same
    /// batch): the replaced push gets a `coalesced` delivery record and the new one inherits its
    /// attempts and, if later, its next attempt time. Durable when this returns. Items must be new:
    /// unclaimed, with push ids unused in the batch, the outbox and the delivery history (`conflict`).
    func enqueue(_ items: [OutboxItem]) async throws(PushStoreError) -> EnqueueResult

    /// Claims up to `limit` due items (`nextAttemptAt <= now`) that are unclaimed or whose claim
    /// expired, for `lease` seconds, in the order they became claimable. No item is handed to two live
    /// claims; an item whose claimer died is claimable again when its lease ends.
    func claim(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> [OutboxItem]

    /// ``claim(owner:limit:now:lease:)`` with, for each push to an activity, that activity's token, bundle id
    /// and standing as the claim statement found them (what the delivery workers send with): one statement,
    /// no read of the batch's activities after it.
    func claimToSend(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> [ClaimedPush]

    /// Extends `owner`'s claim on these pushes to `until` (a worker still sending them, so their lease
    /// does not end under it); returns how many it still held. Items claimed by another owner since,
    /// or gone, are left alone.
    func renewClaims(owner: String, pushIDs: [UUID], until: Date) async throws(PushStoreError) -> Int

    /// Removes claimed items from the outbox and writes their delivery records, in one transaction (what
    /// a worker does after a batch of sends). Items `owner` does not hold (gone, or claimed again by
    /// another worker after the lease ended) are skipped and listed in the report instead of failing
    /// the batch.
    func complete(owner: String, results: [DeliveryResult], at: Date) async throws(PushStoreError) -> CompletionReport

    /// Records what a worker's batch came to, in one transaction: the final outcomes (as
    /// ``complete(owner:results:at:)``), the retries (each given back, due at its
    /// `nextAttemptAt` with its attempts and last error, for those `owner` still holds; the others are
    /// listed, not failed) and the refused tokens, marked
    /// invalid wherever they are stored (an activity's current token, a push-to-start token), as of the send,
    /// with their `token.invalid` events in `journal`. Durable when it invalidated a token; otherwise a
    /// deferred commit (lost outcomes leave their pushes claimed, and they are sent again with the same ids).
    func settle(owner: String, _ settlement: OutboxSettlement, at: Date, journal: WebhookJournal?) async throws(PushStoreError)
        -> SettlementReport

    /// Drops every claim of `owner` (graceful shutdown); returns how many items were released.
    func release(owner: String) async throws(PushStoreError) -> Int

    /// How many items are in the outbox, claimed or not.
    func outboxDepth() async throws(PushStoreError) -> Int

    /// The items waiting for one activity, oldest first.
    func pendingItems(activityID: String) async throws(PushStoreError) -> [OutboxItem]
}

/// What became of the pushes that left the outbox.
package protocol DeliveryHistory: Sendable {
    /// The newest `limit` delivery records of an activity, newest first.
    func deliveries(activityID: String, limit: Int) async throws(PushStoreError) -> [DeliveryRecord]

    /// The newest `limit` delivery records of a broadcast channel, newest first.
    func deliveries(channelID: UUID, limit: Int) async throws(PushStoreError) -> [DeliveryRecord]
}

/// The hourly budget of priority-10 pushes per activity.
package protocol PriorityBudget: Sendable {
    /// Check and count in one step, safe across processes, for many activities in one transaction (a
    /// send at priority 10): for each activity, if fewer than its `limit` priority-10 pushes were
    /// recorded in the hour before `at`, records one and grants it. Keyed by activity id; the ids must be
    /// different.
    func consumeHighPriority(_ requests: [(activityID: String, limit: Int)], at: Date)
        async throws(PushStoreError) -> [String: BudgetDecision]
}

/// The API keys of the HTTP API, stored by their SHA-256.
package protocol APIKeyStore: Sendable {
    /// Stores a new key by its SHA-256 (64 hex digits). Throws `conflict` if the hash is stored.
    func createAPIKey(name: String, scope: APIKeyScope, sha256Hash: String, at: Date) async throws(PushStoreError) -> APIKeyRecord

    /// The key with this hash, revoked or not.
    func apiKey(byHash sha256Hash: String) async throws(PushStoreError) -> APIKeyRecord?

    /// Every key, oldest first.
    func apiKeys() async throws(PushStoreError) -> [APIKeyRecord]

    /// Revokes a key (again revoking keeps the first date).
    func revokeAPIKey(id: UUID, at: Date) async throws(PushStoreError) -> APIKeyRecord
}
