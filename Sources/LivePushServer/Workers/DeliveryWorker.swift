import APNsCore
import Foundation
import Logging
import PushStore
import ServiceLifecycle

/// The outbox workers, as a Service of the application: once the API listens, `workerCount` workers each
/// claim a batch of due pushes, send it as one batch, and record one final outcome per push (or
/// reschedule it with back-off until its expiration). On graceful shutdown (or cancellation) they stop
/// claiming, finish what is in flight and give back their claims before `run` returns.
struct DeliveryWorker: BackgroundWorker, Sendable {
    let store: any PushStore
    let sender: any PushSending
    let webhook: any DomainEvents
    /// Wakes idle workers when a push is accepted.
    let signal: OutboxSignal
    let context: WorkerContext

    /// Runs the workers until graceful shutdown or cancellation; returns once each has finished its
    /// in-flight pushes and released its claims.
    func run() async {
        guard await context.untilListening() else { return }
        let workers = context.configuration.workerCount
        let instance = context.configuration.instanceID
        // A service that returns early stops the application: with no workers, wait for shutdown.
        guard workers > 0 else { return await waitForShutdown() }
        await untilShutdown(waking: signal) { isStopping in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<workers {
                    let worker = context.leaseWorker(
                        owner: "\(instance)-w\(index)", queues: [outboxQueue, pageQueue], signal: signal, lease: context.configuration.claimLease)
                    group.addTask { await worker.run(isStopping: isStopping) }
                }
            }
        }
    }

    /// The outbox: single sends, retries and broadcasts, first in each round. A claimed batch is sent as
    /// one batch, its final outcomes recorded together.
    private var outboxQueue: LeasedQueue {
        let context = context
        return LeasedQueue.batches(of: "pushes", id: \.pushID) { [store] owner throws(PushStoreError) in
            try await store.claim(
                owner: owner, limit: context.configuration.batchSize, now: context.clock.now(), lease: context.configuration.claimLease)
        } renew: { [store] owner, pushIDs, until throws(PushStoreError) in
            try await store.renewClaims(owner: owner, pushIDs: pushIDs, until: until)
        } release: { [store] owner throws(PushStoreError) in
            try await store.release(owner: owner)
        } work: { owner, items in
            let activities = await targetActivities(of: items)
            await finish(await attempt(items, activities: activities), owner: owner)
        }
    }

    /// The pages of group sends, after the outbox.
    private var pageQueue: LeasedQueue {
        LeasedQueue(name: "group pages") { owner throws(PushStoreError) in
            try await claimPage(owner: owner)
        } release: { [store] owner throws(PushStoreError) in
            try await store.releasePages(owner: owner)
        }
    }

    /// Claims the next page of a group send.
    private func claimPage(owner: String) async throws(PushStoreError) -> LeasedWork? {
        guard
            let page = try await store.claimPage(
                owner: owner, pageSize: context.configuration.batchSize, now: context.clock.now(), lease: context.configuration.claimLease)
        else { return nil }
        let store = self.store
        return LeasedWork(subject: ["owner": "\(owner)", "sendId": "\(page.send.sendID.lowercased)", "first": "\(page.firstID)"]) {
            until throws(PushStoreError) in
            try await store.renewPage(page, owner: owner, until: until)
        } send: {
            await self.sendPage(page, owner: owner)
        }
    }

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
            context.logger.warning("reading a batch's activities failed; reading them one by one", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Records what a batch came to in one transaction (final outcomes, retries, refused tokens), then
    /// counts and logs it. When the store fails, the claims expire and the pushes are sent again (harmless:
    /// their timestamps are fixed).
    private func finish(_ settlement: OutboxSettlement, owner: String) async {
        guard !settlement.isEmpty else { return }
        let now = context.clock.now()
        var settlement = settlement
        settlement.results = settlement.results.map { result in
            var shortened = result
            shortened.reason = result.reason.map { DeliveryResult.shortened($0) }
            return shortened
        }
        for retry in settlement.retries {
            context.logger.debug(
                "push will be retried",
                metadata: [
                    "pushId": "\(retry.pushID.lowercased)", "attempts": "\(retry.attempts)", "error": "\(retry.lastError ?? "")",
                    "next": "\(retry.nextAttemptAt)",
                ])
        }
        let report: SettlementReport
        do {
            report = try await store.settle(owner: owner, settlement, at: now, journal: webhook.tokenJournal)
        } catch .invalidInput {
            // One outcome the store refuses must not hold back the others: record them one by one.
            context.logger.error(
                "a batch of push outcomes was refused; recording them one by one",
                metadata: ["owner": "\(owner)", "count": "\(settlement.results.count)"])
            report = await settleOneByOne(settlement, owner: owner, at: now)
        } catch {
            context.logger.error(
                "recording push outcomes failed; the pushes will be sent again when their claims expire",
                metadata: ["owner": "\(owner)", "count": "\(settlement.results.count + settlement.retries.count)", "error": "\(error)"])
            return
        }
        for pushID in report.completion.notHeld + report.retriesNotHeld {
            context.logger.warning("a push's claim was taken over before its outcome was recorded", metadata: ["pushId": "\(pushID.lowercased)"])
        }
        tokensInvalidated(report.invalidated)
        for record in report.completion.records {
            let elapsed = max(0, now.timeIntervalSince(record.acceptedAt))
            context.metrics.recordOutcome(
                record.outcome, reason: record.reason.map(Self.metricReason), priority: record.priority,
                latency: .milliseconds(Int64(elapsed * 1000)))
            let level: Logger.Level = record.outcome == .accepted ? .debug : .info
            context.logger.log(
                level: level, "push finished",
                metadata: [
                    "pushId": "\(record.pushID.lowercased)", "target": "\(record.target)", "kind": "\(record.kind.rawValue)",
                    "outcome": "\(record.outcome.rawValue)", "reason": "\(record.reason ?? "")", "attempts": "\(record.attempts)",
                ])
        }
    }

    /// The settlement in parts, each result alone, when the store refused it whole.
    private func settleOneByOne(_ settlement: OutboxSettlement, owner: String, at now: Date) async -> SettlementReport {
        var report = SettlementReport(completion: CompletionReport(records: [], notHeld: []), retriesNotHeld: [], invalidated: InvalidatedTokens())
        var parts = [OutboxSettlement(retries: settlement.retries, invalidations: settlement.invalidations)]
        parts += settlement.results.map { OutboxSettlement(results: [$0]) }
        for part in parts {
            do {
                let partial = try await store.settle(owner: owner, part, at: now, journal: webhook.tokenJournal)
                report.completion.records += partial.completion.records
                report.completion.notHeld += partial.completion.notHeld
                report.retriesNotHeld += partial.retriesNotHeld
                report.invalidated.activities += partial.invalidated.activities
                report.invalidated.pushToStartTokens += partial.invalidated.pushToStartTokens
            } catch {
                context.logger.error(
                    "recording a push outcome failed",
                    metadata: ["pushIds": "\((part.results.map(\.pushID) + part.retries.map(\.pushID)).map(\.lowercased))", "error": "\(error)"])
            }
        }
        return report
    }

    /// A bounded label for a reason: Apple's known reasons as they are, anything else `other` (a reason from
    /// a proxy, or our own text, would make the label set unbounded).
    static func metricReason(_ reason: String) -> String {
        let known = APNsReason(rawValue: reason)
        if case .other = known { return "other" }
        return known.rawValue
    }
}
