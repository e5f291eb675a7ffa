import APNsClient
import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore

/// The pages of group sends as a leased queue: a claimed page is the next slice of one send's members
/// (the store cuts it under the send's row lock); what each member gets is the domain's
/// (``GroupSendPlan``), and the page is sent as one batch through ``DeviceDelivery``.
struct GroupPageQueue: SendPageQueue {
    let store: any GroupSendStore & PriorityBudget
    let delivery: DeviceDelivery

    var name: String { "group pages" }
    var context: WorkerContext { delivery.context }

    /// Claims the next page of a group send.
    func claimPage(owner: String) async throws(PushStoreError) -> GroupSendPage? {
        try await store.claimPage(owner: owner, pageSize: context.settings.batchSize, now: context.clock.now(), lease: context.settings.claimLease)
    }

    func release(owner: String) async throws(PushStoreError) -> Int {
        try await store.releasePages(owner: owner)
    }

    func renew(_ page: GroupSendPage, owner: String, until: Date) async throws(PushStoreError) -> Bool {
        try await store.renewPage(page, owner: owner, until: until)
    }
}

extension GroupPageQueue {
    /// Sends one claimed page of a group send: each member's plan, the priority-10 budget for those sent,
    /// the pushes as one batch; returns every outcome, retry, content state and end, recorded in one store
    /// call (nil when nothing was sent), which the worker runs while it sends its next page. When the store
    /// cannot take them, the page's claim expires and the page is sent again (harmless: its push ids and
    /// timestamps are the same, so the device keeps one).
    func send(_ page: GroupSendPage, owner: String) async -> GroupSendPageOutcome? {
        let send = page.send
        let now = context.clock.now()
        var outcome = GroupSendPageOutcome()
        var planned: [(activity: ActivityRecord, timestamp: Date)] = []
        for activity in page.activities {
            // Only a member recorded here needs its push id (a name-based UUID) now; a planned one gets it
            // with its body.
            switch GroupSendPlan.plan(activity, in: page, now: now) {
            case .send(let timestamp): planned.append((activity, timestamp))
            case .skipped: outcome.skipped += 1
            case .expired:
                let pushID = GroupSendPlan.pushID(sendID: send.sendID, activityID: activity.activityID)
                outcome.records.append(
                    record(
                        send, pushID: pushID, activity: activity, priority: send.template.requestedPriority, downgrade: nil,
                        result: DeliveryResult(pushID: pushID, outcome: .expired, reason: "expired before it could be sent", attempts: 0)))
            case .coalesced(let reason, let by):
                let pushID = GroupSendPlan.pushID(sendID: send.sendID, activityID: activity.activityID)
                var entry = record(
                    send, pushID: pushID, activity: activity, priority: send.template.requestedPriority, downgrade: nil,
                    result: DeliveryResult(pushID: pushID, outcome: .coalesced, reason: reason, attempts: 0))
                entry.coalescedInto = by
                outcome.records.append(entry)
            }
        }
        let budgets: [String: BudgetDecision]
        do {
            budgets = try await budgetDecisions(send, for: planned.map(\.activity), now: now)
        } catch {
            context.logger.error(
                "checking a group page's priority-10 budget failed; the page will be sent again",
                metadata: [
                    "sendId": "\(send.sendID.lowercased)", "error": "\(error)",
                ])
            return nil
        }
        let items = pageItems(send, planned: planned, budgets: budgets, outcome: &outcome)
        context.metrics.recordAccepted(items.count)
        let sent = await delivery.deliver(items.map(\.devicePush))
        outcome.invalidations = sent.invalidations
        let recordedAt = context.clock.now()
        for (position, verdict) in sent.verdicts {
            let push = items[position]
            switch verdict {
            case .final(let result) where Self.wentAsPlanned(result, push.item):
                outcome.accepted.append(
                    activityID: push.activity.activityID, apnsUniqueID: result.apnsUniqueID, sentAt: result.sentAt ?? recordedAt)
            case .final(let result): outcome.records.append(DeliveryRecord(push.item, result, recordedAt: recordedAt))
            case .retry(let retry): outcome.retries.append(retry)
            }
            // Accepted for the activity (sent, or to be retried): its content and timestamp are recorded.
            outcome.contentStates.append((push.activity.activityID, push.timestamp))
            if send.kind == .end { outcome.ended.append(push.activity.activityID) }
        }
        outcome.contentState = (try? LiveActivityPayload.decode(from: send.template.payload))?.contentState
        return outcome
    }

    /// A push the page records with the others (``AcceptedPagePushes``): accepted at the first attempt, at
    /// the priority asked for, with its own id as `apns-id` (a UUID: APNs may echo it in either case).
    private static func wentAsPlanned(_ delivery: DeliveryResult, _ item: OutboxItem) -> Bool {
        delivery.outcome == .accepted && delivery.attempts == 1 && delivery.status == 200 && delivery.reason == nil
            && item.downgradeReason == nil && item.priority == item.requestedPriority
            && delivery.apnsID.flatMap { UUID(canonical: $0) } == item.pushID
    }

    /// One push per planned member (``GroupSendPlan/pushes(_:planned:budgets:)``); a member whose push
    /// cannot be encoded gets a failed record instead.
    private func pageItems(
        _ send: GroupSend, planned: [(activity: ActivityRecord, timestamp: Date)], budgets: [String: BudgetDecision],
        outcome: inout GroupSendPageOutcome
    ) -> [GroupSendPlan.Push] {
        let (pushes, unencodable) = GroupSendPlan.pushes(send, planned: planned, budgets: budgets)
        for member in unencodable {
            outcome.records.append(
                record(
                    send, pushID: member.pushID, activity: member.activity, priority: member.priority, downgrade: member.downgrade,
                    result: DeliveryResult(
                        pushID: member.pushID, outcome: .failed, reason: "the group send's payload could not be encoded with a later timestamp",
                        attempts: 0)))
        }
        let downgraded = pushes.count { $0.item.downgradeReason != nil }
        outcome.downgraded += downgraded
        for _ in 0..<downgraded { context.metrics.recordDowngrade() }
        return pushes
    }

    /// The history entry of a push that was never sent.
    private func record(
        _ send: GroupSend, pushID: UUID, activity: ActivityRecord, priority: APNsPriority, downgrade: String?,
        result: DeliveryResult
    ) -> DeliveryRecord {
        DeliveryRecord(
            pushID: pushID, target: .activity(id: activity.activityID), kind: send.kind, acceptedAt: send.acceptedAt, sentAt: nil,
            priority: priority, requestedPriority: send.template.requestedPriority, downgradeReason: downgrade, apnsID: nil, status: nil,
            reason: result.reason, attempts: result.attempts, outcome: result.outcome, coalescedInto: nil, recordedAt: context.clock.now(),
            sendID: send.sendID)
    }

    /// For a priority-10 send: each member's hourly budget checked and counted in one store step.
    private func budgetDecisions(_ send: GroupSend, for activities: [ActivityRecord], now: Date)
        async throws(PushStoreError) -> [String: BudgetDecision]
    {
        let requests = context.settings.priorityBudget.requests(send.template.requestedPriority, for: activities)
        guard !requests.isEmpty else { return [:] }
        return try await store.consumeHighPriority(requests, at: now)
    }

    private struct OutcomeKey: Hashable {
        var outcome: DeliveryOutcome
        var reason: String?
        var priority: APNsPriority
    }

    /// Records the page; then counts, logs, and tells the webhook about the ends.
    func record(_ page: GroupSendPage, owner: String, outcome: GroupSendPageOutcome) async {
        let now = context.clock.now()
        // The activity.ended events of the page's ends are stored in the same transaction.
        guard
            let report = await completed(
                page, as: "a group page",
                by: { () async throws(PushStoreError) in
                    try await store.completePage(page, owner: owner, outcome: outcome, at: now, journal: delivery.events.journal(endCause: .backend))
                })
        else { return }
        // One counter step per (outcome, reason, priority) of the page, not one per push.
        var counts: [OutcomeKey: Int] = [:]
        for record in outcome.records {
            counts[
                OutcomeKey(outcome: record.outcome, reason: record.reason.map(DeviceDelivery.metricReason), priority: record.priority), default: 0] +=
                1
            context.metrics.recordLatency(.milliseconds(Int64(max(0, now.timeIntervalSince(record.acceptedAt)) * 1000)))
        }
        counts[OutcomeKey(outcome: .accepted, reason: nil, priority: page.send.template.requestedPriority), default: 0] += outcome.accepted.count
        let latency = Duration.milliseconds(Int64(max(0, now.timeIntervalSince(page.send.acceptedAt)) * 1000))
        for _ in 0..<outcome.accepted.count { context.metrics.recordLatency(latency) }
        for (key, count) in counts where count > 0 {
            context.metrics.recordOutcomes(key.outcome, reason: key.reason, priority: key.priority, count: count)
        }
        context.metrics.recordCoalesced(outcome.records.count { $0.outcome == .coalesced })
        delivery.events.committed(report.endedNow.count)
        delivery.tokensInvalidated(report.invalidated)
        context.logger.debug(
            "group page sent",
            metadata: [
                "sendId": "\(page.send.sendID.lowercased)", "members": "\(page.activities.count)", "accepted": "\(outcome.accepted.count)",
                "records": "\(outcome.records.count)",
                "retries": "\(outcome.retries.count)", "skipped": "\(outcome.skipped)",
            ])
    }
}

extension GroupSendPlan.Push {
    /// To the member's token as read with the page.
    var devicePush: DeviceDelivery.DevicePush {
        DeviceDelivery.DevicePush(item: item, target: DeviceDelivery.ResolvedTarget(token: activity.pushToken, bundleID: activity.bundleID))
    }
}
