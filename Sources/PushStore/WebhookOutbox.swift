import Foundation

/// One webhook event waiting to be delivered: its JSON body as it will be POSTed, and its attempts.
package struct WebhookDelivery: Sendable, Hashable {
    package var id: UUID
    /// The event kind (`token.invalid`, ...), for logs and metrics.
    package var event: String
    package var body: Data
    package var attempts: Int
    package var createdAt: Date
    package var nextAttemptAt: Date
    package var lastError: String?

    package init(
        id: UUID = UUID(), event: String, body: Data, attempts: Int = 0, createdAt: Date,
        nextAttemptAt: Date? = nil, lastError: String? = nil
    ) {
        self.id = id
        self.event = event
        self.body = body
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.lastError = lastError
    }
}

/// The webhook's durable queue: events are stored when they happen and removed once the webhook took
/// them, so none is lost when the server stops or crashes. Claimed like outbox items, so several
/// instances share the work and an instance that died leaves its events to the others after the lease.
package protocol WebhookOutbox: Sendable {
    /// Stores events in one transaction: all or none. Durable when this returns.
    func enqueueWebhooks(_ deliveries: [WebhookDelivery]) async throws(PushStoreError)

    /// Claims up to `limit` due events (`nextAttemptAt <= now`), unclaimed or whose claim expired, for
    /// `lease` seconds, oldest first.
    func claimWebhooks(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError)
        -> [WebhookDelivery]

    /// Extends `owner`'s claim on these events to `until` (while their POSTs are under way); returns how
    /// many it still held.
    func renewWebhooks(owner: String, ids: [UUID], until: Date) async throws(PushStoreError) -> Int

    /// Removes an event `owner` holds (delivered, or given up). Throws `notFound` when it is gone and
    /// `conflict` when another owner holds it.
    func completeWebhook(id: UUID, owner: String) async throws(PushStoreError)

    /// Gives a claimed event back for a later attempt.
    func rescheduleWebhook(id: UUID, owner: String, nextAttemptAt: Date, attempts: Int, lastError: String)
        async throws(PushStoreError)

    /// Drops every claim of `owner`; returns how many events were released.
    func releaseWebhooks(owner: String) async throws(PushStoreError) -> Int

    /// How many events wait, claimed or not.
    func webhookDepth() async throws(PushStoreError) -> Int
}
