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
final class WebhookService: Service, Sendable {
    private let store: any WebhookOutbox
    private let configuration: ServerConfiguration
    private let metrics: ServerMetrics
    private let clock: any WallClock
    private let logger: Logger
    private let signal: OutboxSignal
    private let listening: ListeningGate
    private let stopping = Mutex(false)
    /// When the depth gauge was last read from the store.
    private let depthUpdated = Mutex<ContinuousClock.Instant?>(nil)

    init(
        store: any WebhookOutbox, configuration: ServerConfiguration, metrics: ServerMetrics, clock: any WallClock,
        logger: Logger, signal: OutboxSignal, listening: ListeningGate
    ) {
        self.store = store
        self.configuration = configuration
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
        self.signal = signal
        self.listening = listening
    }

    /// The owner of this process's webhook claims.
    var owner: String { configuration.instanceID + "-webhook" }

    private var isStopping: Bool { stopping.withLock { $0 } }

    func run() async {
        // A service that returns early stops the application: without a webhook, wait for shutdown.
        guard let url = configuration.webhookURL, let secret = configuration.webhookSecret else { return await waitForShutdown() }
        guard await listening.wait() != nil else { return }
        // The poster's HTTP clients are shut down before `run` returns.
        await WebhookPoster.withPoster(
            url: url, secret: secret, timeout: configuration.webhookTimeout,
            allowPrivateTargets: configuration.webhookAllowPrivateTargets, metrics: metrics, logger: logger
        ) { poster in
            await untilShutdown(stop: { self.stop() }) { await work(poster) }
        }
    }

    /// Stops claiming (the POSTs in flight finish, then the claims are released).
    private func stop() {
        stopping.withLock { $0 = true }
        signal.wakeAll()
    }

    private func work(_ poster: WebhookPoster) async {
        let queue = LeasedQueue(name: "webhook events") { owner throws(PushStoreError) in
            try await self.claimEvents(owner: owner, poster: poster)
        } release: { owner throws(PushStoreError) in
            try await self.store.releaseWebhooks(owner: owner)
        }
        let worker = LeaseWorker(
            owner: owner, queues: [queue], signal: signal, pollInterval: pollInterval, lease: lease, clock: clock, metrics: metrics,
            logger: logger)
        await worker.run { self.isStopping }
        await updateDepth()
    }

    /// Claims up to `webhookConcurrency` due events, POSTed concurrently. The depth gauge is read first,
    /// at most once a second.
    private func claimEvents(owner: String, poster: WebhookPoster) async throws(PushStoreError) -> LeasedWork? {
        let now = ContinuousClock.now
        let due = depthUpdated.withLock { last in
            guard last.map({ $0.duration(to: now) < .seconds(1) }) != true else { return false }
            last = now
            return true
        }
        if due { await updateDepth() }
        let claimed = try await store.claimWebhooks(owner: owner, limit: configuration.webhookConcurrency, now: clock.now(), lease: lease)
        guard !claimed.isEmpty else { return nil }
        let ids = claimed.map(\.id)
        let store = self.store
        return LeasedWork(subject: ["owner": "\(owner)", "events": "\(claimed.count)"]) { until throws(PushStoreError) in
            try await store.renewWebhooks(owner: owner, ids: ids, until: until) > 0
        } run: {
            await withTaskGroup(of: Void.self) { group in
                for delivery in claimed {
                    group.addTask { await self.attempt(delivery, poster: poster) }
                }
            }
        }
    }

    /// A claim outlasts the longest POST, so another instance does not take over an event under way.
    private var lease: TimeInterval { min(86_400, configuration.claimLease + configuration.webhookTimeout) }

    private var pollInterval: Duration { .milliseconds(Int64(configuration.pollInterval * 1000)) }

    /// One attempt at a claimed event: delivered, rescheduled with back-off, or dropped past its maximum age.
    private func attempt(_ delivery: WebhookDelivery, poster: WebhookPoster) async {
        let now = clock.now()
        if now.timeIntervalSince(delivery.createdAt) > configuration.webhookMaximumAge {
            return await drop(delivery, attempts: delivery.attempts, lastError: delivery.lastError ?? "never attempted")
        }
        guard let failure = await poster.post(delivery, at: now) else {
            metrics.recordWebhookDelivered()
            await finish(delivery)
            logger.debug("webhook event delivered", metadata: metadata(delivery, attempts: delivery.attempts + 1))
            return
        }
        // Cut short by the shutdown timeout: not an attempt; the release gives the event back as it was.
        if Task.isCancelled { return }
        metrics.recordWebhookFailedAttempt()
        let attempts = delivery.attempts + 1
        let delay = configuration.webhookRetryDelay(afterAttempts: attempts, random: Double.random(in: 0...1))
        let next = clock.now().addingTimeInterval(delay)
        if next.timeIntervalSince(delivery.createdAt) > configuration.webhookMaximumAge {
            return await drop(delivery, attempts: attempts, lastError: failure)
        }
        var details = metadata(delivery, attempts: attempts)
        details["error"] = "\(failure)"
        details["delay"] = "\(delay)"
        logger.info("webhook POST failed; it will be retried", metadata: details)
        do {
            try await store.rescheduleWebhook(
                id: delivery.id, owner: owner, nextAttemptAt: next, attempts: attempts,
                lastError: DeliveryResult.shortened(failure))
        } catch .notFound {
            // Its claim expired or was taken back, and another run delivered it meanwhile.
            logger.info("a webhook event to retry was delivered by another run", metadata: metadata(delivery, attempts: attempts))
        } catch {
            logger.warning(
                "rescheduling a webhook event failed; its claim will expire and it will be retried",
                metadata: ["eventId": "\(delivery.id.uuidString.lowercased())", "error": "\(error)"])
        }
    }

    /// Gives up on an event older than the maximum age.
    private func drop(_ delivery: WebhookDelivery, attempts: Int, lastError: String) async {
        var details = metadata(delivery, attempts: attempts)
        details["error"] = "\(lastError)"
        details["age"] = "\(Int(clock.now().timeIntervalSince(delivery.createdAt)))s"
        logger.error("webhook event dropped: not delivered within its maximum age", metadata: details)
        metrics.recordWebhookDropped()
        await finish(delivery)
    }

    /// Removes a delivered or dropped event.
    private func finish(_ delivery: WebhookDelivery) async {
        do {
            try await store.completeWebhook(id: delivery.id, owner: owner)
        } catch .notFound {
            logger.info(
                "a finished webhook event was already removed by another run",
                metadata: ["eventId": "\(delivery.id.uuidString.lowercased())"])
        } catch {
            logger.warning(
                "removing a finished webhook event failed; it may be delivered again",
                metadata: ["eventId": "\(delivery.id.uuidString.lowercased())", "error": "\(error)"])
        }
    }

    private func updateDepth() async {
        do {
            metrics.setWebhookDepth(try await store.webhookDepth())
        } catch {
            logger.warning("reading the webhook queue depth failed", metadata: ["error": "\(error)"])
        }
    }

    private func metadata(_ delivery: WebhookDelivery, attempts: Int) -> Logger.Metadata {
        ["eventId": "\(delivery.id.uuidString.lowercased())", "event": "\(delivery.event)", "attempts": "\(attempts)"]
    }
}
