import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore

/// Turns checked send requests into outbox items: fixes each push's timestamp, applies the priority
/// budget, and writes the whole request to the outbox in one transaction before anything else.
final class PushAcceptor: Sendable {
    let store: any PushStore
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let clock: any WallClock
    let logger: Logger
    let webhook: WebhookService
    let signal: OutboxSignal
    /// Shared with the lifecycle sweep, so both issue one activity increasing timestamps.
    let timestamps = TimestampIssuer()

    init(store: any PushStore, configuration: ServerConfiguration, metrics: ServerMetrics, clock: any WallClock,
         logger: Logger, webhook: WebhookService, signal: OutboxSignal) {
        self.signal = signal
        self.store = store
        self.configuration = configuration
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
        self.webhook = webhook
    }

    /// Why an activity cannot receive pushes now, or nil.
    static func ineligibility(_ activity: ActivityRecord) -> (rule: String, message: String)? {
        if activity.state != .active {
            return ("active", "activity '\(activity.activityId)' is \(activity.state.rawValue); only active activities take updates")
        }
        if case .invalid(let reason, _) = activity.tokenState {
            return ("validToken", "activity '\(activity.activityId)' has no valid push token (APNs said \(reason)); the app must register a new token")
        }
        return nil
    }

    /// Accepts an update or end for each activity given (already checked eligible).
    func accept(kind: PushKind, body: PushRequestBody, activities: [ActivityRecord], skipped: [AcceptedPushes.Skipped])
        async throws(APIError) -> AcceptedPushes
    {
        let now = clock.now()
        var items: [OutboxItem] = []
        var timestampsByActivity: [String: Date] = [:]
        var answer = AcceptedPushes(skipped: skipped)
        let dismissal = kind == .end ? body.dismissalDate : nil
        // Payloads first: a request with a bad payload for any activity changes nothing, budget included.
        // They differ only in their timestamp, and a group's activities nearly all get the same one: each
        // distinct timestamp's payload is encoded and checked once.
        var payloads: [(activity: ActivityRecord, data: Data)] = []
        var encodedByTimestamp: [Date: Data] = [:]
        for activity in activities {
            let timestamp = timestamps.next(for: activity.activityId, now: now, stored: activity.lastTimestamp)
            let data: Data
            if let encoded = encodedByTimestamp[timestamp] {
                data = encoded
            } else {
                data = try PushRequestBody.validate(body.payload(kind: kind, timestamp: timestamp, dismissalDate: dismissal))
                encodedByTimestamp[timestamp] = data
            }
            payloads.append((activity, data))
            timestampsByActivity[activity.activityId] = timestamp
        }
        let budgets = try await budgetDecisions(body.requestedPriority, for: activities, now: now)
        for (activity, data) in payloads {
            let (priority, downgrade) = Self.priority(body.requestedPriority, for: activity, decision: budgets[activity.activityId])
            let item = OutboxItem(
                target: .activity(id: activity.activityId), kind: kind, payload: data, priority: priority,
                requestedPriority: body.requestedPriority, importance: body.importance, downgradeReason: downgrade,
                collapseKey: body.collapseId, expiration: body.expiration ?? now.addingTimeInterval(configuration.defaultExpiration),
                acceptedAt: now
            )
            if let downgrade { answer.downgraded.append(.init(pushId: item.pushId.lowercased, reason: downgrade)) }
            items.append(item)
        }
        try await enqueue(items, into: &answer)
        let users = Dictionary(activities.map { ($0.activityId, $0.userId) }, uniquingKeysWith: { first, _ in first })
        await afterAcceptance(activityIds: items.compactMap(\.target.activityId), users: users, kind: kind,
                              contentState: body.contentState, timestamps: timestampsByActivity, dismissal: dismissal, now: now)
        return answer
    }

    /// Accepts a push-to-start for each valid token given.
    func acceptStart(body: PushRequestBody, tokens: [PushToStartTokenRecord], skipped: [AcceptedPushes.Skipped])
        async throws(APIError) -> AcceptedPushes
    {
        let now = clock.now()
        var answer = AcceptedPushes(skipped: skipped)
        var items: [OutboxItem] = []
        for token in tokens {
            let timestamp = timestamps.next(for: "start:" + token.id.uuidString, now: now, stored: nil)
            let data = try PushRequestBody.validate(body.payload(kind: .start, timestamp: timestamp, dismissalDate: nil))
            items.append(OutboxItem(
                target: .pushToStartToken(id: token.id), kind: .start, payload: data, priority: body.requestedPriority,
                requestedPriority: body.requestedPriority, importance: body.importance, collapseKey: body.collapseId,
                expiration: body.expiration ?? now.addingTimeInterval(configuration.defaultExpiration), acceptedAt: now
            ))
        }
        try await enqueue(items, into: &answer)
        return answer
    }

    private func enqueue(_ items: [OutboxItem], into answer: inout AcceptedPushes) async throws(APIError) {
        guard !items.isEmpty else { return }
        let result: EnqueueResult
        do {
            result = try await store.enqueue(items)
        } catch {
            throw StoreErrorMapping.apiError(error, logger: logger)
        }
        signal.wake(items: items.count)
        answer.pushIds = result.accepted.map(\.lowercased)
        answer.coalesced = result.coalesced.map { .init(replaced: $0.replaced.lowercased, by: $0.by.lowercased) }
        logger.info("pushes accepted", metadata: [
            "kind": "\(items[0].kind.rawValue)", "count": "\(items.count)", "coalesced": "\(result.coalescedCount)",
            "target": "\(items.count == 1 ? items[0].target.description : "\(items.count) targets")",
        ])
        metrics.recordAccepted(items.count)
        metrics.recordCoalesced(result.coalescedCount)
        for _ in answer.downgraded { metrics.recordDowngrade() }
    }

    /// For a priority-10 request: each activity's hourly budget checked and counted, for all of them in
    /// one store step (safe across instances). Empty for other priorities.
    private func budgetDecisions(_ requested: APNsPriority, for activities: [ActivityRecord], now: Date)
        async throws(APIError) -> [String: BudgetDecision]
    {
        guard requested == .immediate, !activities.isEmpty else { return [:] }
        let requests = activities.map { activity in
            (activityId: activity.activityId,
             limit: activity.frequentPushesEnabled ? configuration.frequentHourlyPriority10Budget : configuration.hourlyPriority10Budget)
        }
        do {
            return try await store.consumeHighPriority(requests, at: now)
        } catch {
            throw StoreErrorMapping.apiError(error, logger: logger)
        }
    }

    /// The priority to send with: priority 10 within the activity's hourly budget, else 5 with the reason.
    static func priority(_ requested: APNsPriority, for activity: ActivityRecord, decision: BudgetDecision?)
        -> (APNsPriority, String?)
    {
        guard requested == .immediate, let decision, !decision.granted else { return (requested, nil) }
        let kind = activity.frequentPushesEnabled ? "frequent-updates budget" : "budget"
        return (.conservesPower, "hourly priority-10 \(kind) of \(decision.limit) used (\(decision.usedInWindow) in the last hour); sent at priority 5")
    }

    /// Bookkeeping after the items are durable, one store call for all the activities of the request (a
    /// group's can be many thousands); failures are logged (the pushes are accepted already).
    private func afterAcceptance(activityIds: [String], users: [String: String?], kind: PushKind, contentState: JSONValue?,
                                 timestamps: [String: Date], dismissal: Date?, now: Date) async {
        guard !activityIds.isEmpty else { return }
        do {
            _ = try await store.recordContentState(
                activityIds.map { (activityId: $0, timestamp: timestamps[$0] ?? now) }, contentState: contentState)
            if kind == .end {
                let ended = try await store.markEnded(
                    activityIds: activityIds, at: now,
                    dismissalDate: dismissal ?? now.addingTimeInterval(configuration.defaultDismissalDelay))
                for activityId in ended {
                    webhook.notify(.activityEnded(activityId, userId: users[activityId] ?? nil, cause: .backend, at: now))
                }
            }
        } catch {
            let target = activityIds.count == 1 ? activityIds[0] : "\(activityIds.count) activities"
            logger.error("bookkeeping after acceptance failed", metadata: ["activityId": "\(target)", "error": "\(error)"])
        }
    }
}
