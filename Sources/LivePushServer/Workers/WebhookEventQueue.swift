import APNsCore
import Foundation
import Logging
import PushStore
import Synchronization

/// The webhook outbox as a leased queue: due events, up to `webhookConcurrency` at a time, POSTed
/// concurrently; each is removed once answered 2xx, rescheduled with back-off otherwise, or dropped past
/// `webhookMaximumAge` (logged at error, counted). The depth gauge is read before each claim, at most
/// once a second.
final class WebhookEventQueue: LeasedBatchQueue {
    private let store: any WebhookOutbox
    private let poster: WebhookPoster
    /// The owner of this process's webhook claims.
    private let owner: String
    private let lease: TimeInterval
    private let context: WorkerContext
    /// When the depth gauge was last read from the store.
    private let depthUpdated = Mutex<ContinuousClock.Instant?>(nil)

    init(store: any WebhookOutbox, poster: WebhookPoster, owner: String, lease: TimeInterval, context: WorkerContext) {
        self.store = store
        self.poster = poster
        self.owner = owner
        self.lease = lease
        self.context = context
    }

    var name: String { "webhook events" }
    var batchLimit: Int { context.settings.webhook.concurrency }

    func claimBatch(owner: String) async throws(PushStoreError) -> [WebhookDelivery] {
        await updateDepthEverySecond()
        return try await store.claimWebhooks(owner: owner, limit: batchLimit, now: context.clock.now(), lease: lease)
    }

    func renew(owner: String, batch: [WebhookDelivery], until: Date) async throws(PushStoreError) -> Int {
        try await store.renewWebhooks(owner: owner, ids: batch.map(\.id), until: until)
    }

    func release(owner: String) async throws(PushStoreError) -> Int {
        try await store.releaseWebhooks(owner: owner)
    }

    /// Each event is recorded as its attempt ends: nothing is left to record.
    func work(owner: String, batch: [WebhookDelivery]) async -> (any LeasedRecording)? {
        await withTaskGroup(of: Void.self) { group in
            for delivery in batch {
                group.addTask { await self.attempt(delivery) }
            }
        }
        return nil
    }

    private func updateDepthEverySecond() async {
        let now = ContinuousClock.now
        let due = depthUpdated.withLock { last in
            guard last.map({ $0.duration(to: now) < .seconds(1) }) != true else { return false }
            last = now
            return true
        }
        if due { await updateDepth() }
    }

    /// One attempt at a claimed event: delivered, rescheduled with back-off, or dropped past its maximum age.
    private func attempt(_ delivery: WebhookDelivery) async {
        let now = context.clock.now()
        if now.timeIntervalSince(delivery.createdAt) > context.settings.webhook.maximumAge {
            return await drop(delivery, attempts: delivery.attempts, lastError: delivery.lastError ?? "never attempted")
        }
        guard let failure = await poster.post(delivery, at: now) else {
            context.metrics.recordWebhookDelivered()
            await finish(delivery)
            context.logger.debug("webhook event delivered", metadata: metadata(delivery, attempts: delivery.attempts + 1))
            return
        }
        // Cut short by the shutdown timeout: not an attempt; the release gives the event back as it was.
        if Task.isCancelled { return }
        context.metrics.recordWebhookFailedAttempt()
        let attempts = delivery.attempts + 1
        let delay = context.settings.webhook.retryDelay(afterAttempts: attempts, random: Double.random(in: 0...1))
        let next = context.clock.now().addingTimeInterval(delay)
        if next.timeIntervalSince(delivery.createdAt) > context.settings.webhook.maximumAge {
            return await drop(delivery, attempts: attempts, lastError: failure)
        }
        var details = metadata(delivery, attempts: attempts)
        details["error"] = "\(failure)"
        details["delay"] = "\(delay)"
        context.logger.info("webhook POST failed; it will be retried", metadata: details)
        do {
            try await store.rescheduleWebhook(
                id: delivery.id, owner: owner, nextAttemptAt: next, attempts: attempts,
                lastError: DeliveryResult.shortened(failure))
        } catch .notFound {
            // Its claim expired or was taken back, and another run delivered it meanwhile.
            context.logger.info("a webhook event to retry was delivered by another run", metadata: metadata(delivery, attempts: attempts))
        } catch {
            context.logger.warning(
                "rescheduling a webhook event failed; its claim will expire and it will be retried",
                metadata: ["eventId": "\(delivery.id.lowercased)", "error": "\(error)"])
        }
    }

    /// Gives up on an event older than the maximum age.
    private func drop(_ delivery: WebhookDelivery, attempts: Int, lastError: String) async {
        var details = metadata(delivery, attempts: attempts)
        details["error"] = "\(lastError)"
        details["age"] = "\(Int(context.clock.now().timeIntervalSince(delivery.createdAt)))s"
        context.logger.error("webhook event dropped: not delivered within its maximum age", metadata: details)
        context.metrics.recordWebhookDropped()
        await finish(delivery)
    }

    /// Removes a delivered or dropped event.
    private func finish(_ delivery: WebhookDelivery) async {
        do {
            try await store.completeWebhook(id: delivery.id, owner: owner)
        } catch .notFound {
            context.logger.info(
                "a finished webhook event was already removed by another run",
                metadata: ["eventId": "\(delivery.id.lowercased)"])
        } catch {
            context.logger.warning(
                "removing a finished webhook event failed; it may be delivered again",
                metadata: ["eventId": "\(delivery.id.lowercased)", "error": "\(error)"])
        }
    }

    /// Reads the depth gauge from the store.
    func updateDepth() async {
        do {
            context.metrics.setWebhookDepth(try await store.webhookDepth())
        } catch {
            context.logger.warning("reading the webhook queue depth failed", metadata: ["error": "\(error)"])
        }
    }

    private func metadata(_ delivery: WebhookDelivery, attempts: Int) -> Logger.Metadata {
        ["eventId": "\(delivery.id.lowercased)", "event": "\(delivery.event)", "attempts": "\(attempts)"]
    }
}
