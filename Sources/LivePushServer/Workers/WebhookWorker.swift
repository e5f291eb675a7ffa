import APNsCore
import Foundation
import Logging
import PushStore
import ServiceLifecycle

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
struct WebhookWorker: BackgroundWorker, Sendable {
    let store: any WebhookOutbox
    /// Wakes the worker when an event is stored.
    let signal: OutboxSignal
    let context: WorkerContext

    /// The owner of this process's webhook claims.
    var owner: String { context.settings.instanceID + "-webhook" }

    func run() async {
        let settings = context.settings
        // A service that returns early stops the application: without a webhook, wait for shutdown.
        guard let url = settings.webhook.url, let secret = settings.webhook.secret else { return await waitForShutdown() }
        guard await context.untilListening() else { return }
        // The poster's HTTP clients are shut down before `run` returns.
        await WebhookPoster.withPoster(
            url: url, secret: secret, timeout: settings.webhook.timeout,
            allowPrivateTargets: settings.webhook.allowPrivateTargets, metrics: context.metrics, logger: context.logger
        ) { poster in
            let queue = WebhookEventQueue(store: store, poster: poster, owner: owner, lease: lease, context: context)
            await untilShutdown(waking: signal) { isStopping in
                await context.leaseWorker(owner: owner, queues: [queue], signal: signal, lease: lease).run(isStopping: isStopping)
            }
            await queue.updateDepth()
        }
    }

    /// A claim outlasts the longest POST, so another instance does not take over an event under way.
    private var lease: TimeInterval { min(86_400, context.settings.claimLease + context.settings.webhook.timeout) }
}
