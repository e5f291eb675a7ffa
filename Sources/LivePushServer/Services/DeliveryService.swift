import APNsCore
import Foundation
import Logging
import PushStore
import ServiceLifecycle
import Synchronization

/// The outbox workers, as a Service of the application: once the API listens, `workerCount` workers each
/// claim a batch of due pushes, send it as one batch, and record one final outcome per push (or
/// reschedule it with back-off until its expiration). On graceful shutdown (or cancellation) they stop
/// claiming, finish what is in flight and give back their claims before `run` returns.
final class DeliveryService: Service, Sendable {
    let store: any PushStore
    let sender: any PushSending
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let clock: any WallClock
    let logger: Logger
    let webhook: any DomainEvents
    private let signal: OutboxSignal
    private let listening: ListeningGate
    private let stopping = Mutex(false)

    init(
        store: any PushStore, sender: any PushSending, configuration: ServerConfiguration, metrics: ServerMetrics,
        clock: any WallClock, logger: Logger, webhook: any DomainEvents, signal: OutboxSignal, listening: ListeningGate
    ) {
        self.signal = signal
        self.listening = listening
        self.store = store
        self.sender = sender
        self.configuration = configuration
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
        self.webhook = webhook
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    /// Runs the workers until graceful shutdown or cancellation; returns once each has finished its
    /// in-flight pushes and released its claims.
    func run() async {
        guard await listening.wait() != nil else { return }
        let workers = configuration.workerCount
        let instance = configuration.instanceID
        // A service that returns early stops the application: with no workers, wait for shutdown.
        guard workers > 0 else { return await waitForShutdown() }
        await untilShutdown(stop: { self.stop() }) {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<workers {
                    let worker = LeaseWorker(
                        owner: "\(instance)-w\(index)", queues: [outboxQueue, pageQueue], signal: signal, pollInterval: pollInterval,
                        lease: configuration.claimLease, clock: clock, metrics: metrics, logger: logger)
                    group.addTask { await worker.run { self.isStopping } }
                }
            }
        }
    }

    /// Makes the workers stop claiming (each finishes its batch, then releases its claims).
    private func stop() {
        stopping.withLock { $0 = true }
        signal.wakeAll()
    }

    /// The outbox: single sends, retries and broadcasts, first in each round.
    private var outboxQueue: LeasedQueue {
        LeasedQueue(name: "pushes") { owner throws(PushStoreError) in
            try await self.claimBatch(owner: owner)
        } release: { [store] owner throws(PushStoreError) in
            try await store.release(owner: owner)
        }
    }

    /// The pages of group sends, after the outbox.
    private var pageQueue: LeasedQueue {
        LeasedQueue(name: "group pages") { owner throws(PushStoreError) in
            try await self.claimPage(owner: owner)
        } release: { [store] owner throws(PushStoreError) in
            try await store.releasePages(owner: owner)
        }
    }

    /// Claims a batch of due outbox pushes: sent as one batch, their final outcomes recorded together.
    private func claimBatch(owner: String) async throws(PushStoreError) -> LeasedWork? {
        let items = try await store.claim(owner: owner, limit: configuration.batchSize, now: clock.now(), lease: configuration.claimLease)
        guard !items.isEmpty else { return nil }
        let pushIDs = items.map(\.pushID)
        let store = self.store
        return LeasedWork(subject: ["owner": "\(owner)", "pushes": "\(items.count)"]) { until throws(PushStoreError) in
            try await store.renewClaims(owner: owner, pushIDs: pushIDs, until: until) > 0
        } run: {
            let activities = await self.targetActivities(of: items)
            await self.finish(await self.attempt(items, owner: owner, activities: activities), owner: owner)
        }
    }

    /// Claims the next page of a group send.
    private func claimPage(owner: String) async throws(PushStoreError) -> LeasedWork? {
        guard let page = try await store.claimPage(owner: owner, pageSize: configuration.batchSize, now: clock.now(), lease: configuration.claimLease)
        else { return nil }
        let store = self.store
        return LeasedWork(subject: ["owner": "\(owner)", "sendId": "\(page.send.sendID)", "first": "\(page.firstID)"]) {
            until throws(PushStoreError) in
            try await store.renewPage(page, owner: owner, until: until)
        } send: {
            await self.sendPage(page, owner: owner)
        }
    }

    private var pollInterval: Duration { .milliseconds(Int(configuration.pollInterval * 1000)) }

    /// The activities a claimed batch targets, read in one store call; nil when that read failed (each
    /// push then reads its own target, and a store failure reschedules it).
    private func targetActivities(of items: [OutboxItem]) async -> [String: ActivityRecord]? {
        var ids = [String]()
        var seen = Set<String>()
        for item in items {
            if let id = item.target.activityID, seen.insert(id).inserted { ids.append(id) }
        }
        guard !ids.isEmpty else { return [:] }
        do {
            var byID = [String: ActivityRecord]()
            for activity in try await store.activities(ids: ids) { byID[activity.activityID] = activity }
            return byID
        } catch {
            logger.warning("reading a batch's activities failed; reading them one by one", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Records the final outcomes of a batch in one transaction, then counts and logs them. When the
    /// store fails, the claims expire and the pushes are sent again (harmless: their timestamps are fixed).
    private func finish(_ results: [DeliveryResult], owner: String) async {
        guard !results.isEmpty else { return }
        let now = clock.now()
        let results = results.map { result in
            var shortened = result
            shortened.reason = result.reason.map { DeliveryResult.shortened($0) }
            return shortened
        }
        let report: CompletionReport
        do {
            report = try await store.complete(owner: owner, results: results, at: now)
        } catch .invalidInput {
            // One outcome the store refuses must not hold back the others: record them one by one.
            logger.error(
                "a batch of push outcomes was refused; recording them one by one", metadata: ["owner": "\(owner)", "count": "\(results.count)"])
            var records: [DeliveryRecord] = []
            var notHeld: [UUID] = []
            for result in results {
                do {
                    let single = try await store.complete(owner: owner, results: [result], at: now)
                    records += single.records
                    notHeld += single.notHeld
                } catch {
                    logger.error("recording a push outcome failed", metadata: ["pushId": "\(result.pushID)", "error": "\(error)"])
                }
            }
            report = CompletionReport(records: records, notHeld: notHeld)
        } catch {
            logger.error("recording push outcomes failed", metadata: ["owner": "\(owner)", "count": "\(results.count)", "error": "\(error)"])
            return
        }
        for pushID in report.notHeld {
            logger.warning("a push's claim was taken over before its outcome was recorded", metadata: ["pushId": "\(pushID)"])
        }
        for record in report.records {
            let elapsed = max(0, now.timeIntervalSince(record.acceptedAt))
            metrics.recordOutcome(
                record.outcome, reason: record.reason.map(Self.metricReason), priority: record.priority,
                latency: .milliseconds(Int64(elapsed * 1000)))
            let level: Logger.Level = record.outcome == .accepted ? .debug : .info
            logger.log(
                level: level, "push finished",
                metadata: [
                    "pushId": "\(record.pushID)", "target": "\(record.target)", "kind": "\(record.kind.rawValue)",
                    "outcome": "\(record.outcome.rawValue)", "reason": "\(record.reason ?? "")", "attempts": "\(record.attempts)",
                ])
        }
    }

    /// A bounded label for a reason: Apple's known reasons as they are, anything else `other` (a reason from
    /// a proxy, or our own text, would make the label set unbounded).
    static func metricReason(_ reason: String) -> String {
        let known = APNsReason(rawValue: reason)
        if case .other = known { return "other" }
        return known.rawValue
    }
}
