import APNsCore
import Foundation
import Logging

/// What the server's background workers (the delivery workers, the webhook, the lifecycle sweep) share:
/// the settings, the clock, logs and metrics, and the gate that holds them until the API listens.
struct WorkerContext: Sendable {
    let settings: WorkerSettings
    let metrics: ServerMetrics
    let clock: any WallClock
    let logger: Logger
    let listening: ListeningGate

    /// Waits until the API listens; false if it never will (then the worker has nothing to do).
    func untilListening() async -> Bool {
        await listening.wait() != nil
    }

    /// A lease worker over `queues`, woken by `signal` and otherwise polling every `pollInterval`, whose
    /// claims last `lease`.
    func leaseWorker(owner: String, queues: [any LeasedQueue], signal: OutboxSignal, lease: TimeInterval) -> LeaseWorker {
        LeaseWorker(
            owner: owner, queues: queues, signal: signal, pollInterval: .milliseconds(Int64(settings.pollInterval * 1000)), lease: lease,
            clock: clock, metrics: metrics, logger: logger)
    }
}
