import APNsCore
import Foundation
import Logging
import PushStore

/// The pages of audience starts as a leased queue, like ``GroupPageQueue``: a claimed page is the next
/// slice of one start's users with their push-to-start tokens; what each gets is the domain's
/// (``AudienceStartPlan``, with the per-device budget), and the page is sent as one batch through
/// ``DeviceDelivery``.
struct AudiencePageQueue: SendPageQueue {
    let store: any AudienceStartStore & PushToStartBudget
    let delivery: DeviceDelivery

    var name: String { "audience pages" }
    var context: WorkerContext { delivery.context }

    func claimPage(owner: String) async throws(PushStoreError) -> AudienceStartPage? {
        try await store.claimAudiencePage(
            owner: owner, pageSize: context.settings.batchSize, now: context.clock.now(), lease: context.settings.claimLease)
    }

    func release(owner: String) async throws(PushStoreError) -> Int {
        try await store.releaseAudiencePages(owner: owner)
    }

    func renew(_ page: AudienceStartPage, owner: String, until: Date) async throws(PushStoreError) -> Bool {
        try await store.renewAudiencePage(page, owner: owner, until: until)
    }
}

extension AudiencePageQueue {
    /// Sends one claimed page: the starts its devices' budgets grant (reserved in the store before any is
    /// sent, so a concurrent page or renewal to the same device counts them), the plan of each user and
    /// device, the start pushes as one batch; returns every outcome (nil when the budget could not be
    /// asked: the page's claim expires and it is sent again, its reservations counted once).
    func send(_ page: AudienceStartPage, owner: String) async -> AudienceStartPageOutcome? {
        let start = page.send
        let now = context.clock.now()
        let granted: Set<UUID>
        do {
            granted = try await context.settings.pushToStartBudget.reserve(AudienceStartPlan.candidates(of: page, now: now), in: store, now: now)
        } catch {
            context.logger.error(
                "reserving an audience page's push-to-start budget failed; the page will be sent again",
                metadata: ["sendId": "\(start.sendID.lowercased)", "error": "\(error)"])
            return nil
        }
        let plan = AudienceStartPlan.plan(page, granted: granted, now: now)
        var outcome = AudienceStartPageOutcome()
        outcome.targeted = plan.targeted
        outcome.noToken = plan.noToken.count
        outcome.budget = plan.overBudget.count
        for token in plan.expired {
            let item = AudienceStartPlan.item(start, to: token)
            outcome.records.append(
                DeliveryRecord(
                    item, DeliveryResult(pushID: item.pushID, outcome: .expired, reason: "expired before it could be sent", attempts: 0),
                    recordedAt: now))
        }
        let pushes = plan.send.map { token in
            DeviceDelivery.DevicePush(
                item: AudienceStartPlan.item(start, to: token), target: DeviceDelivery.ResolvedTarget(token: token.token, bundleID: token.bundleID))
        }
        context.metrics.recordAccepted(pushes.count)
        let delivered = await delivery.deliver(pushes)
        outcome.invalidations = delivered.invalidations
        let recordedAt = context.clock.now()
        for (position, verdict) in delivered.verdicts {
            switch verdict {
            case .final(let result): outcome.records.append(DeliveryRecord(pushes[position].item, result, recordedAt: recordedAt))
            case .retry(let retry): outcome.retries.append(retry)
            }
        }
        return outcome
    }

    /// Records the page; then counts and logs.
    func record(_ page: AudienceStartPage, owner: String, outcome: AudienceStartPageOutcome) async {
        let now = context.clock.now()
        guard
            let report = await completed(
                page, as: "an audience page",
                by: { () async throws(PushStoreError) in
                    try await store.completeAudiencePage(page, owner: owner, outcome: outcome, at: now, journal: delivery.events.tokenJournal)
                })
        else { return }
        for record in outcome.records {
            context.metrics.recordOutcomes(
                record.outcome, reason: record.reason.map(DeviceDelivery.metricReason), priority: record.priority, count: 1)
            context.metrics.recordLatency(.milliseconds(Int64(max(0, now.timeIntervalSince(record.acceptedAt)) * 1000)))
        }
        delivery.tokensInvalidated(report.invalidated)
        context.logger.debug(
            "audience page sent",
            metadata: [
                "sendId": "\(page.send.sendID.lowercased)", "users": "\(page.users.count)", "targeted": "\(outcome.targeted)",
                "records": "\(outcome.records.count)", "retries": "\(outcome.retries.count)", "noToken": "\(outcome.noToken)",
                "budget": "\(outcome.budget)",
            ])
    }
}
