import APNsCore
import Foundation
import Logging
import PushStore
import ServiceLifecycle

/// The outbox workers, as a Service of the application: once the API listens, `workerCount` lease workers
/// each claim a batch of due pushes (``OutboxQueue``) or else a group send's page (``GroupPageQueue``) or an audience start's (``AudiencePageQueue``),
/// send it as one batch, and record what it came to (final outcomes, retries with back-off until their
/// expiration, refused tokens). On graceful shutdown (or cancellation) they stop claiming, finish what is
/// in flight and give back their claims before `run` returns.
///
/// The worker makes its queues and hands them to its lease workers, which call them; nothing calls back
/// into the worker.
struct DeliveryWorker: BackgroundWorker, Sendable {
    let store: any PushStore
    let sender: any PushSending
    let events: any DomainEvents
    /// Wakes idle workers when a push is accepted.
    let signal: OutboxSignal
    let context: WorkerContext

    /// Runs the workers until graceful shutdown or cancellation; returns once each has finished its
    /// in-flight pushes and released its claims.
    func run() async {
        guard await context.untilListening() else { return }
        let workers = context.settings.workerCount
        let instance = context.settings.instanceID
        // A service that returns early stops the application: with no workers, wait for shutdown.
        guard workers > 0 else { return await waitForShutdown() }
        let delivery = DeviceDelivery(sender: sender, events: events, context: context)
        // The outbox (single sends, retries and broadcasts) first in each round, then group pages.
        let queues: [any LeasedQueue] = [
            OutboxQueue(store: store, delivery: delivery), GroupPageQueue(store: store, delivery: delivery),
            AudiencePageQueue(store: store, delivery: delivery),
        ]
        await untilShutdown(waking: signal) { isStopping in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<workers {
                    let worker = context.leaseWorker(
                        owner: "\(instance)-w\(index)", queues: queues, signal: signal, lease: context.settings.claimLease)
                    group.addTask { await worker.run(isStopping: isStopping) }
                }
            }
        }
    }
}
