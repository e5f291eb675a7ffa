import APNsCore
import Foundation
import Logging
import PushStore

/// The outbox as a leased queue: single sends, retries and broadcasts. A claimed batch is sent as one
/// batch (``attempt(_:activities:)``), and what it came to is recorded in one store call while the worker
/// claims and sends its next batch.
struct OutboxQueue: LeasedBatchQueue {
    let store: any OutboxStore & ActivityStore & PushToStartStore & ChannelStore
    let delivery: DeviceDelivery

    var name: String { "pushes" }
    var context: WorkerContext { delivery.context }
    var batchLimit: Int { context.settings.batchSize }

    func claimBatch(owner: String) async throws(PushStoreError) -> [ClaimedPush] {
        // The claim reads each activity target's token with it: no read of the batch's activities before the send.
        try await store.claimToSend(
            owner: owner, limit: batchLimit, now: context.clock.now(), lease: context.settings.claimLease)
    }

    func renew(owner: String, batch: [ClaimedPush], until: Date) async throws(PushStoreError) -> Int {
        try await store.renewClaims(owner: owner, pushIDs: batch.map(\.item.pushID), until: until)
    }

    func release(owner: String) async throws(PushStoreError) -> Int {
        try await store.release(owner: owner)
    }

    func work(owner: String, batch: [ClaimedPush]) async -> (any LeasedRecording)? {
        var settlement = await attempt(batch)
        // The records are made from the pushes as claimed: the store removes their rows without reading them back.
        settlement.claimed = batch.map(\.item)
        return settlement.isEmpty ? nil : Recording(queue: self, owner: owner, settlement: settlement)
    }

    /// What a sent batch came to, still to be recorded.
    struct Recording: LeasedRecording {
        let queue: OutboxQueue
        let owner: String
        let settlement: OutboxSettlement

        func record() async {
            await queue.finish(settlement, owner: owner)
        }
    }

    /// Records what a batch came to in one transaction (final outcomes, retries, refused tokens), then
    /// counts and logs it. When the store fails, the claims expire and the pushes are sent again (harmless:
    /// their timestamps are fixed).
    private func finish(_ settlement: OutboxSettlement, owner: String) async {
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
            report = try await store.settle(owner: owner, settlement, at: now, journal: delivery.events.tokenJournal)
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
        delivery.tokensInvalidated(report.invalidated)
        // Counted per outcome, reason and priority once per batch: a counter with labels is a lookup each time.
        var outcomes: [OutcomeKey: Int] = [:]
        for record in report.completion.records {
            let elapsed = max(0, now.timeIntervalSince(record.acceptedAt))
            context.metrics.recordLatency(.milliseconds(Int64(elapsed * 1000)))
            outcomes[
                OutcomeKey(outcome: record.outcome, reason: record.reason.map(DeviceDelivery.metricReason), priority: record.priority), default: 0] +=
                1
            let level: Logger.Level = record.outcome == .accepted ? .debug : .info
            context.logger.log(
                level: level, "push finished",
                metadata: [
                    "pushId": "\(record.pushID.lowercased)", "target": "\(record.target)", "kind": "\(record.kind.rawValue)",
                    "outcome": "\(record.outcome.rawValue)", "reason": "\(record.reason ?? "")", "attempts": "\(record.attempts)",
                ])
        }
        for (key, count) in outcomes {
            context.metrics.recordOutcomes(key.outcome, reason: key.reason, priority: key.priority, count: count)
        }
    }

    /// A push outcome's labels in `livepush_server_pushes_total`.
    private struct OutcomeKey: Hashable {
        var outcome: DeliveryOutcome
        var reason: String?
        var priority: APNsPriority
    }

    /// The settlement in parts, each result alone, when the store refused it whole.
    private func settleOneByOne(_ settlement: OutboxSettlement, owner: String, at now: Date) async -> SettlementReport {
        var report = SettlementReport(completion: CompletionReport(records: [], notHeld: []), retriesNotHeld: [], invalidated: InvalidatedTokens())
        var parts = [OutboxSettlement(retries: settlement.retries, invalidations: settlement.invalidations)]
        parts += settlement.results.map { OutboxSettlement(results: [$0], claimed: settlement.claimed) }
        for part in parts {
            do {
                let partial = try await store.settle(owner: owner, part, at: now, journal: delivery.events.tokenJournal)
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
}
