import APNsCore
import Foundation
import Logging
import PushStore
import ServiceLifecycle
import Synchronization

/// Delivers the webhook events stored in the webhook outbox, as a Service of the application: once the
/// API listens it claims due events (`<instanceId>-webhook`, with the ``LeaseWorker`` every leased queue
/// shares, which renews the claim while POSTs are under way), POSTs them signed, `webhookConcurrency` at
/// a time, removes those answered 2xx and reschedules the others with back-off; an event older than
/// `webhookMaximumAge` is dropped (logged at error, counted). New events wake it; otherwise it polls
/// every `pollInterval` (retries coming due, events of other instances).
///
/// On graceful shutdown (or cancellation) it stops claiming, finishes the POSTs in flight and releases
/// its claims before `run` returns: what is left stays stored for the next start or another instance.
/// At start it takes back the claims a crashed run with the same instance id left.
final class WebhookWorker: BackgroundWorker, Sendable {
    private let store: any WebhookOutbox
    /// Wakes the worker when an event is stored.
    private let signal: OutboxSignal
    private let context: WorkerContext
    /// When the depth gauge was last read from the store.
    private let depthUpdated = Mutex<ContinuousClock.Instant?>(nil)

    init(store: any WebhookOutbox, signal: OutboxSignal, context: WorkerContext) {
        self.store = store
        self.signal = signal
        self.context = context
    }

    /// The owner of this process's webhook claims.
    var owner: String { context.configuration.instanceID + "-webhook" }

    func run() async {
        let configuration = context.configuration
        // A service that returns early stops the application: without a webhook, wait for shutdown.
        guard let url = configuration.webhookURL, let secret = configuration.webhookSecret else { return await waitForShutdown() }
        guard await context.untilListening() else { return }
        // The poster's HTTP clients are shut down before `run` returns.
        await WebhookPoster.withPoster(
            url: url, secret: secret, timeout: configuration.webhookTimeout,
            allowPrivateTargets: configuration.webhookAllowPrivateTargets, metrics: context.metrics, logger: context.logger
        ) { poster in
            await untilShutdown(waking: signal) { isStopping in
                await context.leaseWorker(owner: owner, queues: [queue(poster)], signal: signal, lease: lease).run(isStopping: isStopping)
            }
            await updateDepth()
        }
    }

    /// Due events, up to `webhookConcurrency` at a time, POSTed concurrently. The depth gauge is read
    /// before each claim, at most once a second.
    private func queue(_ poster: WebhookPoster) -> LeasedQueue {
        LeasedQueue.batches(of: "webhook events", id: \.id) { owner throws(PushStoreError) in
            await self.updateDepthEverySecond()
            return try await self.store.claimWebhooks(
                owner: owner, limit: self.context.configuration.webhookConcurrency, now: self.context.clock.now(), lease: self.lease)
        } renew: { [store] owner, ids, until throws(PushStoreError) in
            try await store.renewWebhooks(owner: owner, ids: ids, until: until)
        } release: { [store] owner throws(PushStoreError) in
            try await store.releaseWebhooks(owner: owner)
        } work: { _, claimed in
            await withTaskGroup(of: Void.self) { group in
                for delivery in claimed {
                    group.addTask { await self.attempt(delivery, poster: poster) }
                }
            }
        }
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

    /// A claim outlasts the longest POST, so another instance does not take over an event under way.
    private var lease: TimeInterval { min(86_400, context.configuration.claimLease + context.configuration.webhookTimeout) }

    /// One attempt at a claimed event: delivered, rescheduled with back-off, or dropped past its maximum age.
    private func attempt(_ delivery: WebhookDelivery, poster: WebhookPoster) async {
        let now = context.clock.now()
        if now.timeIntervalSince(delivery.createdAt) > context.configuration.webhookMaximumAge {
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
        let delay = context.configuration.webhookRetryDelay(afterAttempts: attempts, random: Double.random(in: 0...1))
        let next = context.clock.now().addingTimeInterval(delay)
        if next.timeIntervalSince(delivery.createdAt) > context.configuration.webhookMaximumAge {
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

    private func updateDepth() async {
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
