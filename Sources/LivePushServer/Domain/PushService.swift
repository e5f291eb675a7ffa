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
    let settings: PushSettings
    let metrics: ServerMetrics
    let clock: any WallClock
    let logger: Logger
    let events: any DomainEvents
    let signal: OutboxSignal
    /// Shared with the lifecycle sweep, so both issue one activity increasing timestamps.
    let timestamps = TimestampIssuer()

    /// Updates or ends one activity.
    func send(_ kind: LiveActivityEvent, toActivity activityID: String, _ content: PushContent) async throws(DomainError) -> SendAcceptance {
        // One read: the activity with its app's content-state shape.
        guard let named = try await stored({ () async throws(PushStoreError) in try await store.activityToSend(id: activityID) }) else {
            throw .notFound("activityId", "no activity '\(activityID)' is registered")
        }
        // A renewed activity's updates go to the activity that took over from it.
        let activity = try await renewalHead(named.activity)
        if let refusal = Eligibility.refusalToAccept(activity) {
            throw .conflict("activityId", refusal.rule, refusal.message)
        }
        if activity.activityID == named.activity.activityID {
            try await checkContentState(kind, content, for: activity, shape: named.shape)
        } else {
            try await checkContentState(kind, content, for: activity)
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
        if hasMembers { try await checkContentState(kind, content, forGroup: groupID) }
        let timestamp = timestamps.next(for: "group:" + groupID, now: now, stored: nil)
        let payload = try content.validatedPayload(kind: kind, timestamp: timestamp)
        let broadcastItems = channels.isEmpty ? [] : try await broadcastItems(kind, to: channels, content)
        let send = GroupSend(
            groupID: groupID, kind: kind, template: sendTemplate(content, payload: payload, timestamp: timestamp, now: now),
            dismissalDate: kind == .end ? (content.dismissalDate ?? now.addingTimeInterval(settings.defaultDismissalDelay)) : nil,
            acceptedAt: now, createdBy: createdBy, expanded: !hasMembers, finishedAt: hasMembers ? nil : now)
        if hasMembers {
            try await stored { () async throws(PushStoreError) in try await store.createGroupSend(send) }
            signal.wake(pagesFor: settings.workerCount)
            logger.info(
                "group send accepted", metadata: ["sendId": "\(send.sendID.lowercased)", "groupId": "\(groupID)", "kind": "\(kind.rawValue)"])
        }
        let broadcast = broadcastItems.isEmpty ? SendAcceptance() : try await acceptBroadcasts(broadcastItems)
        return GroupSendStatus(send, broadcastPushIDs: broadcast.pushIDs)
    }

    /// The payload and options every push of a send to many carries (a group send, an audience start), with
    /// the default expiration when the request gives none.
    func sendTemplate(_ content: PushContent, payload: Data, timestamp: Date, now: Date) -> SendTemplate {
        SendTemplate(
            payload: payload, timestamp: timestamp, requestedPriority: content.requestedPriority, importance: content.importance,
            collapseKey: content.collapseID, expiration: content.expiration ?? now.addingTimeInterval(settings.defaultExpiration))
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
        var skipped = tokens.filter { !$0.tokenState.isValid }.map {
            SendAcceptance.Skipped(target: .pushToStartToken($0.id), reason: "push-to-start token of device '\($0.deviceID)' is invalid")
        }
        // The device drops a start over its budget: each start is reserved first, as every other start is.
        let reserved = try await reserveStartBudget(valid, now: clock.now())
        let rule = settings.pushToStartBudget
        guard !reserved.isEmpty else {
            throw .conflict(
                "userId", "pushToStartBudget",
                "every device of user '\(userID)' has had its \(rule.budget) push-to-start pushes in the last \(Int(rule.window)) s; a device drops more, so none was sent. Retry after the window"
            )
        }
        let granted = Set(reserved.map(\.token.id))
        skipped += valid.filter { !granted.contains($0.id) }.map {
            SendAcceptance.Skipped(
                target: .pushToStartToken($0.id),
                reason: "device '\($0.deviceID)' has had its \(rule.budget) push-to-start pushes in the last \(Int(rule.window)) s")
        }
        do {
            return try await acceptStart(content, tokens: reserved.map(\.token), skipped: skipped, pushIDs: ReservedStart.pushIDs(reserved))
        } catch {
            await releaseStartBudget(reserved)
            throw error
        }
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
        let dismissal = now.addingTimeInterval(settings.defaultDismissalDelay)
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
        // Payloads first: a request with a bad payload for any activity changes nothing, budget included.
        let prepared = try activities.map { activity throws(DomainError) in try prepare(kind, body, for: activity, now: now) }
        let outcome = try await accept(prepared, endCause: endCause, now: now)
        var answer = SendAcceptance(skipped: skipped)
        answer.pushIDs = outcome.enqueued.accepted
        answer.coalesced = outcome.enqueued.coalesced.map { .init(replaced: $0.replaced, by: $0.by) }
        answer.downgraded = outcome.pushes.compactMap { item in item.downgradeReason.map { .init(pushID: item.pushID, reason: $0) } }
        return (answer, outcome.ended)
    }

    /// One activity's push, its payload made and checked, before anything is stored; its id made here, not
    /// in the store's transaction (on SQLite's one writer).
    struct PreparedPush: Sendable {
        var kind: LiveActivityEvent
        var activity: ActivityRecord
        var content: PushContent
        var timestamp: Date
        var payload: Data
        var pushID = UUID.random()
    }

    /// Fixes the push's timestamp (after the activity's newest) and checks its payload as the device will.
    func prepare(_ kind: LiveActivityEvent, _ content: PushContent, for activity: ActivityRecord, now: Date) throws(DomainError)
        -> PreparedPush
    {
        let timestamp = timestamps.next(for: activity.activityID, now: now, stored: activity.lastTimestamp)
        let payload = try content.validatedPayload(kind: kind, timestamp: timestamp)
        return PreparedPush(kind: kind, activity: activity, content: content, timestamp: timestamp, payload: payload)
    }

    /// Stores prepared pushes as one acceptance: the priority-10 budget of those asking for it, the outbox
    /// items (at priority 10 within budget, else 5 with the reason), each activity's content-state and, for
    /// ends, the end; one transaction, which concurrent requests share (group commit).
    func accept(_ prepared: [PreparedPush], endCause: WebhookEvent.EndCause, now: Date) async throws(DomainError) -> AcceptanceOutcome {
        guard !prepared.isEmpty else { return AcceptanceOutcome(pushes: [], enqueued: EnqueueResult(accepted: [], coalesced: []), ended: []) }
        let rule = settings.priorityBudget
        let defaultExpiration = now.addingTimeInterval(settings.defaultExpiration)
        let defaultDismissal = now.addingTimeInterval(settings.defaultDismissalDelay)
        let budget = prepared.compactMap { rule.request($0.content.requestedPriority, for: $0.activity) }
        let ends = prepared.filter { $0.kind == .end }.map {
            Acceptance.End(activityID: $0.activity.activityID, dismissalDate: $0.content.dismissalDate ?? defaultDismissal)
        }
        let acceptance = Acceptance(
            at: now, budget: budget,
            stateChanges: prepared.map {
                Acceptance.StateChange(activityID: $0.activity.activityID, timestamp: $0.timestamp, contentState: $0.content.contentState)
            },
            ends: ends, journal: ends.isEmpty ? nil : events.journal(endCause: endCause)
        ) { decisions in
            prepared.map { push in
                OutboxItem.push(
                    to: push.activity, kind: push.kind, payload: push.payload, requestedPriority: push.content.requestedPriority,
                    budget: decisions[push.activity.activityID], importance: push.content.importance, collapseKey: push.content.collapseID,
                    expiration: push.content.expiration ?? defaultExpiration, acceptedAt: now, pushID: push.pushID)
            }
        }
        let outcome = try await stored { () async throws(PushStoreError) in try await store.accept(acceptance) }
        accepted(outcome.pushes, coalesced: outcome.enqueued.coalescedCount)
        if !outcome.ended.isEmpty { events.committed(outcome.ended.count) }
        return outcome
    }

    /// Accepts a push-to-start for each valid token given, with the push id the budget reserved for its
    /// token when there is one (`pushIDs`, by token id).
    func acceptStart(_ body: PushContent, tokens: [PushToStartTokenRecord], skipped: [SendAcceptance.Skipped], pushIDs: [UUID: UUID] = [:])
        async throws(DomainError) -> SendAcceptance
    {
        try await checkStartContentState(body, tokens: tokens, target: tokens.first.map { "user:" + $0.userID } ?? "start")
        let now = clock.now()
        var answer = SendAcceptance(skipped: skipped)
        var items: [OutboxItem] = []
        // The wall clock's whole second, not one after the newest start to the token: each start makes a
        // new activity, which has no earlier push to follow, and a timestamp ahead of the clock would make
        // the new activity drop the updates and broadcasts sent in its first seconds as older.
        let timestamp = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let data = try body.validatedPayload(kind: .start, timestamp: timestamp)
        for token in tokens {
            items.append(
                OutboxItem(
                    pushID: pushIDs[token.id] ?? .random(), target: .pushToStartToken(id: token.id), kind: .start, payload: data,
                    priority: body.requestedPriority, requestedPriority: body.requestedPriority, importance: body.importance,
                    collapseKey: body.collapseID, expiration: body.expiration ?? now.addingTimeInterval(settings.defaultExpiration),
                    acceptedAt: now
                ))
        }
        try await enqueue(items, into: &answer)
        return answer
    }

    func enqueue(_ items: [OutboxItem], into answer: inout SendAcceptance) async throws(DomainError) {
        guard !items.isEmpty else { return }
        let result = try await stored { () async throws(PushStoreError) in try await store.enqueue(items) }
        answer.pushIDs = result.accepted
        answer.coalesced = result.coalesced.map { .init(replaced: $0.replaced, by: $0.by) }
        accepted(items, coalesced: result.coalescedCount)
    }

    /// After pushes are durable: wakes the workers, logs and counts.
    private func accepted(_ items: [OutboxItem], coalesced: Int) {
        guard let first = items.first else { return }
        signal.wake(items: items.count)
        // One line per request: debug, as the metrics count them (info would write a line per update).
        logger.debug(
            "pushes accepted",
            metadata: [
                "kind": "\(first.kind.rawValue)", "count": "\(items.count)", "coalesced": "\(coalesced)",
                "target": "\(items.count == 1 ? first.target.description : "\(items.count) targets")",
            ])
        metrics.recordAccepted(items.count)
        metrics.recordCoalesced(coalesced)
        for _ in 0..<items.count(where: { $0.downgradeReason != nil }) { metrics.recordDowngrade() }
    }
}
