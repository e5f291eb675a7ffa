import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore

/// The only way into the outbox: sends by activity, by group and by user (push-to-start), and the end
/// of an activity at its maximum duration (for the lifecycle sweep). Decides eligibility, fixes each
/// push's timestamp, applies the priority budget, writes the whole request to the outbox in one
/// transaction (where coalescing happens), then records the content state and, for ends, the end.
struct PushService: Sendable {
    let store: any PushStore
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let clock: any WallClock
    let logger: Logger
    let events: any DomainEvents
    let signal: OutboxSignal
    /// Shared with the lifecycle sweep, so both issue one activity increasing timestamps.
    let timestamps = TimestampIssuer()

    /// Updates or ends one activity.
    func send(_ kind: LiveActivityEvent, toActivity activityID: String, _ content: PushContent) async throws(DomainError) -> SendAcceptance {
        guard let named = try await stored({ () async throws(PushStoreError) in try await store.activity(id: activityID) }) else {
            throw .notFound("activityId", "no activity '\(activityID)' is registered")
        }
        // A renewed activity's updates go to the activity that took over from it.
        let activity = try await renewalHead(named)
        if let refusal = Eligibility.refusalToAccept(activity) {
            throw .conflict("activityId", refusal.rule, refusal.message)
        }
        return try await accept(kind, content, activities: [activity], skipped: [], endCause: .backend).accepted
    }

    /// Updates or ends every active activity of a group: one stored record (the payload and the options),
    /// answered at once whatever the group's size; the workers send it in pages of its members. Channels
    /// linked to the group get the same update or end as one broadcast each.
    func send(_ kind: LiveActivityEvent, toGroup groupID: String, _ content: PushContent, createdBy: String) async throws(DomainError)
        -> GroupSendStatus
    {
        let hasMembers = try await stored { () async throws(PushStoreError) in try await store.groupHasMembers(groupID) }
        let channels = try await stored { () async throws(PushStoreError) in try await store.channels(linkedToGroup: groupID) }
        guard hasMembers || !channels.isEmpty else {
            throw .notFound("groupId", "no activity is registered in group '\(groupID)' and no channel is linked to it")
        }
        let now = clock.now()
        // Checked before anything is written: a payload the devices or a broadcast would refuse refuses the request.
        let timestamp = timestamps.next(for: "group:" + groupID, now: now, stored: nil)
        let payload = try PushContent.validate(
            content.payload(kind: kind, timestamp: timestamp, dismissalDate: kind == .end ? content.dismissalDate : nil))
        let broadcastItems = channels.isEmpty ? [] : try await broadcastItems(kind, to: channels, content)
        let send = GroupSend(
            groupID: groupID, kind: kind, payload: payload, timestamp: timestamp, requestedPriority: content.requestedPriority,
            importance: content.importance, collapseKey: content.collapseID,
            expiration: content.expiration ?? now.addingTimeInterval(configuration.defaultExpiration),
            dismissalDate: kind == .end ? (content.dismissalDate ?? now.addingTimeInterval(configuration.defaultDismissalDelay)) : nil,
            acceptedAt: now, createdBy: createdBy, expanded: !hasMembers, finishedAt: hasMembers ? nil : now)
        if hasMembers {
            try await stored { () async throws(PushStoreError) in try await store.createGroupSend(send) }
            signal.wake(items: configuration.workerCount)
            logger.info(
                "group send accepted", metadata: ["sendId": "\(send.sendID.lowercased)", "groupId": "\(groupID)", "kind": "\(kind.rawValue)"])
        }
        let broadcast = broadcastItems.isEmpty ? SendAcceptance() : try await acceptBroadcasts(broadcastItems)
        return GroupSendStatus(send, broadcastPushIDs: broadcast.pushIDs)
    }

    /// A group send's progress.
    func groupSend(id: String) async throws(DomainError) -> GroupSendStatus {
        guard let uuid = UUID(uuidString: id),
            let send = try await stored({ () async throws(PushStoreError) in try await store.groupSend(id: uuid) })
        else { throw .notFound("sendId", "no group send '\(id)'") }
        return GroupSendStatus(send, broadcastPushIDs: [])
    }

    /// Starts an activity on every device of a user that has a valid push-to-start token for the type.
    func start(user userID: String, _ content: PushContent) async throws(DomainError) -> SendAcceptance {
        var content = content
        let requestedChannel = content.inputPushChannel
        let attributesType = content.attributesType ?? ""
        let tokens = try await stored { () async throws(PushStoreError) in
            try await store.pushToStartTokens(forUser: userID, attributesType: attributesType)
        }
        let valid = tokens.filter { $0.tokenState.isValid }
        guard !valid.isEmpty else {
            throw .notFound(
                "userId",
                "user '\(userID)' has no valid push-to-start token for '\(attributesType)'; the app stores one with PUT /v1/push-to-start-tokens")
        }
        if let requestedChannel {
            content.inputPushChannelAPNsID = try await subscriptionChannel(requestedChannel, for: valid).apnsChannelID
        }
        let skipped = tokens.filter { !$0.tokenState.isValid }.map {
            SendAcceptance.Skipped(target: .pushToStartToken($0.id), reason: "push-to-start token of device '\($0.deviceID)' is invalid")
        }
        return try await acceptStart(content, tokens: valid, skipped: skipped)
    }

    /// Ends an activity that reached the maximum active duration: an end push with its last content state
    /// when it has one and a valid token, then the end itself. True when this call ended it (the app or
    /// the backend may have ended it since it was listed: then they reported the end).
    func endAtMaximumDuration(_ activity: ActivityRecord) async throws(DomainError) -> Bool {
        try await endWithLastState(activity, cause: .maximumDuration)
    }

    /// Ends an activity with its last content state (an end push when it can take one), for `cause`.
    func endWithLastState(_ activity: ActivityRecord, cause: WebhookEvent.EndCause) async throws(DomainError) -> Bool {
        let now = clock.now()
        let dismissal = now.addingTimeInterval(configuration.defaultDismissalDelay)
        if let state = activity.lastContentState, Eligibility.refusalToAccept(activity) == nil {
            let content = PushContent(contentState: state, requestedPriority: .conservesPower, importance: .timeSensitive, dismissalDate: dismissal)
            do {
                return try await !accept(.end, content, activities: [activity], skipped: [], endCause: cause).ended.isEmpty
            } catch  where error.kind == .invalid {
                // The end payload cannot be sent (its last state plus the end's keys is over the size
                // limit): end it without a push rather than never.
                logger.warning(
                    "ending an old activity without an end push", metadata: ["activityId": "\(activity.activityID)", "error": "\(error.message)"])
            }
        }
        let change = try await stored { () async throws(PushStoreError) in
            try await store.markEnded(
                activityID: activity.activityID, at: now, dismissalDate: dismissal,
                journal: events.journal(endCause: cause))
        }
        if change.endedNow { events.committed(1) }
        return change.endedNow
    }

    /// Accepts an update or end for each activity given (already checked eligible); returns the answer
    /// and, for an end, the activities this call ended.
    private func accept(
        _ kind: LiveActivityEvent, _ body: PushContent, activities: [ActivityRecord], skipped: [SendAcceptance.Skipped],
        endCause: WebhookEvent.EndCause
    ) async throws(DomainError) -> (accepted: SendAcceptance, ended: [String]) {
        let now = clock.now()
        var items: [OutboxItem] = []
        var timestampsByActivity: [String: Date] = [:]
        var answer = SendAcceptance(skipped: skipped)
        let dismissal = kind == .end ? body.dismissalDate : nil
        // Payloads first: a request with a bad payload for any activity changes nothing, budget included.
        // They differ only in their timestamp, and a group's activities nearly all get the same one: each
        // distinct timestamp's payload is encoded and checked once.
        var payloads: [(activity: ActivityRecord, data: Data)] = []
        var encodedByTimestamp: [Date: Data] = [:]
        for activity in activities {
            let timestamp = timestamps.next(for: activity.activityID, now: now, stored: activity.lastTimestamp)
            let data: Data
            if let encoded = encodedByTimestamp[timestamp] {
                data = encoded
            } else {
                data = try PushContent.validate(body.payload(kind: kind, timestamp: timestamp, dismissalDate: dismissal))
                encodedByTimestamp[timestamp] = data
            }
            payloads.append((activity, data))
            timestampsByActivity[activity.activityID] = timestamp
        }
        let budgets = try await budgetDecisions(body.requestedPriority, for: activities, now: now)
        for (activity, data) in payloads {
            let (priority, downgrade) = Self.priority(body.requestedPriority, for: activity, decision: budgets[activity.activityID])
            let item = OutboxItem(
                target: .activity(id: activity.activityID), kind: kind, payload: data, priority: priority,
                requestedPriority: body.requestedPriority, importance: body.importance, downgradeReason: downgrade,
                collapseKey: body.collapseID, expiration: body.expiration ?? now.addingTimeInterval(configuration.defaultExpiration),
                acceptedAt: now
            )
            if let downgrade { answer.downgraded.append(.init(pushID: item.pushID, reason: downgrade)) }
            items.append(item)
        }
        try await enqueue(items, into: &answer)
        let ended = await afterAcceptance(
            activityIDs: items.compactMap(\.target.activityID), kind: kind,
            contentState: body.contentState, timestamps: timestampsByActivity, dismissal: dismissal,
            endCause: endCause, now: now)
        return (answer, ended)
    }

    /// Accepts a push-to-start for each valid token given.
    func acceptStart(_ body: PushContent, tokens: [PushToStartTokenRecord], skipped: [SendAcceptance.Skipped])
        async throws(DomainError) -> SendAcceptance
    {
        let now = clock.now()
        var answer = SendAcceptance(skipped: skipped)
        var items: [OutboxItem] = []
        for token in tokens {
            let timestamp = timestamps.next(for: "start:" + token.id.uuidString, now: now, stored: nil)
            let data = try PushContent.validate(body.payload(kind: .start, timestamp: timestamp, dismissalDate: nil))
            items.append(
                OutboxItem(
                    target: .pushToStartToken(id: token.id), kind: .start, payload: data, priority: body.requestedPriority,
                    requestedPriority: body.requestedPriority, importance: body.importance, collapseKey: body.collapseID,
                    expiration: body.expiration ?? now.addingTimeInterval(configuration.defaultExpiration), acceptedAt: now
                ))
        }
        try await enqueue(items, into: &answer)
        return answer
    }

    func enqueue(_ items: [OutboxItem], into answer: inout SendAcceptance) async throws(DomainError) {
        guard !items.isEmpty else { return }
        let result = try await stored { () async throws(PushStoreError) in try await store.enqueue(items) }
        signal.wake(items: items.count)
        answer.pushIDs = result.accepted
        answer.coalesced = result.coalesced.map { .init(replaced: $0.replaced, by: $0.by) }
        logger.info(
            "pushes accepted",
            metadata: [
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
        async throws(DomainError) -> [String: BudgetDecision]
    {
        guard requested == .immediate, !activities.isEmpty else { return [:] }
        let requests = activities.map { activity in
            (
                activityID: activity.activityID,
                limit: activity.frequentPushesEnabled ? configuration.frequentHourlyPriority10Budget : configuration.hourlyPriority10Budget
            )
        }
        return try await stored { () async throws(PushStoreError) in try await store.consumeHighPriority(requests, at: now) }
    }

    /// The priority to send with: priority 10 within the activity's hourly budget, else 5 with the reason.
    static func priority(_ requested: APNsPriority, for activity: ActivityRecord, decision: BudgetDecision?)
        -> (APNsPriority, String?)
    {
        guard requested == .immediate, let decision, !decision.granted else { return (requested, nil) }
        let kind = activity.frequentPushesEnabled ? "frequent-updates budget" : "budget"
        return (
            .conservesPower, "hourly priority-10 \(kind) of \(decision.limit) used (\(decision.usedInWindow) in the last hour); sent at priority 5"
        )
    }

    /// Bookkeeping after the items are durable, one store call for all the activities of the request (a
    /// group's can be many thousands); failures are logged (the pushes are accepted already).
    @discardableResult
    private func afterAcceptance(
        activityIDs: [String], kind: LiveActivityEvent, contentState: JSONValue?,
        timestamps: [String: Date], dismissal: Date?, endCause: WebhookEvent.EndCause, now: Date
    ) async -> [String] {
        guard !activityIDs.isEmpty else { return [] }
        do {
            _ = try await store.recordContentState(
                activityIDs.map { (activityID: $0, timestamp: timestamps[$0] ?? now) }, contentState: contentState, acceptedAt: now)
            if kind == .end {
                // The request's events are stored with the ends, in one transaction: a group end of 100,000
                // activities is one store call.
                let ended = try await store.markEnded(
                    activityIDs: activityIDs, at: now,
                    dismissalDate: dismissal ?? now.addingTimeInterval(configuration.defaultDismissalDelay),
                    journal: events.journal(endCause: endCause))
                events.committed(ended.count)
                return ended
            }
        } catch {
            let target = activityIDs.count == 1 ? activityIDs[0] : "\(activityIDs.count) activities"
            logger.error("bookkeeping after acceptance failed", metadata: ["activityId": "\(target)", "error": "\(error)"])
        }
        return []
    }
}
