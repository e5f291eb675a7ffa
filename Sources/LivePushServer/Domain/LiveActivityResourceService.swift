import APNsCore
import Foundation
import LiveActivity
import PushStore

/// Live Activities as resources: the backend says which activity a user should see under its key
/// (`PUT`), and this service starts one by push-to-start, updates the running one, or keeps the newest
/// state while a start waits for the app; links the app's registration to the start it answers and
/// delivers what was kept; ends it (`DELETE`). ``LiveActivityResourceRules`` decides each step; sends go
/// through the push service (its start and acceptance paths, the shape gate, the budgets), renewal is
/// the server's own. Writes are compare-and-set on the resource's version, so concurrent requests and
/// registrations (on any instance) each see the step the other took.
struct LiveActivityResourceService: Sendable {
    let pushes: PushService

    /// What a PUT or DELETE did, for the answer.
    struct Answer: Sendable {
        enum Outcome: String, Sendable {
            case started, updated, queued, unchanged, refused, ended
        }

        var outcome: Outcome
        var reason: String?
        var message: String?
        var resource: LiveActivityResourceRecord
        var pushIDs: [UUID] = []
    }

    /// How often a request reads again after another write came first.
    private static let attempts = 8
    private var store: any PushStore { pushes.store }

    // MARK: PUT

    func put(user userID: String, key: String, _ wanted: WantedLiveActivity) async throws(DomainError) -> Answer {
        for _ in 0..<Self.attempts {
            let previous = try await current(user: userID, key: key)
            let running = try await running(previous)
            let step = try LiveActivityResourceRules.step(wanted, stored: previous, running: running)
            let answer: Answer?
            switch step {
            case .unchanged:
                // `previous` is non-nil: a missing resource always starts.
                guard let previous else { continue }
                return Answer(outcome: .unchanged, resource: previous)
            case .queue:
                guard var next = previous else { continue }
                next.wanted = wanted.shown
                next.pending = true
                next.state = .starting
                next.finalContentState = nil
                next.dismissalDate = nil
                answer = try await save(next, over: previous, event: "queued", wanted).map { Answer(outcome: .queued, resource: $0) }
            case .update(let activityID):
                guard let previous, let running else { continue }
                answer = try await update(previous, running: running, activityID: activityID, wanted)
            case .start:
                answer = try await start(user: userID, key: key, wanted, over: previous)
            }
            if let answer { return answer }
        }
        throw .conflict("key", "concurrent", "the Live Activity under this key changed during the request, again and again; send it again")
    }

    private func update(_ previous: LiveActivityResourceRecord, running: ActivityRecord, activityID: String, _ wanted: WantedLiveActivity)
        async throws(DomainError) -> Answer?
    {
        let content = Self.content(wanted, kind: .update)
        if let refusal = Eligibility.refusalToAccept(running) {
            return try await refuse(previous, over: previous, reason: refusal.rule, message: refusal.message, notStarted: false)
        }
        do {
            try await pushes.checkContentState(.update, content, for: running)
        } catch  where error.kind == .undecodable {
            return try await refuse(previous, over: previous, reason: "contentStateShape", message: error.message, notStarted: false)
        }
        var next = previous
        next.wanted = wanted.shown
        next.pending = false
        guard let saved = try await save(next, over: previous, event: "updated", wanted) else { return nil }
        let accepted: SendAcceptance
        do {
            accepted = try await pushes.send(.update, toActivity: activityID, content)
        } catch {
            // Not sent: the resource goes back to what it showed, so that the same PUT again sends it
            // instead of answering `unchanged`.
            _ = try await refuse(previous, over: saved, reason: error.rule, message: error.message, notStarted: false)
            throw error
        }
        return Answer(outcome: .updated, resource: saved, pushIDs: accepted.pushIDs)
    }

    /// Starts an activity on each of the user's devices with a valid push-to-start token for the type,
    /// within their budget; refused (and reported to the webhook) when there is none.
    private func start(user userID: String, key: String, _ wanted: WantedLiveActivity, over previous: LiveActivityResourceRecord?)
        async throws(DomainError) -> Answer?
    {
        guard wanted.alert != nil else {
            throw .invalid(
                "alert", "requiredToStart",
                "no activity runs under key '\(key)', so this PUT starts one by push-to-start, and the device drops a push-to-start without an alert: give 'alert'"
            )
        }
        let now = pushes.clock.now()
        var next =
            previous
            ?? LiveActivityResourceRecord(
                userID: userID, key: key, attributesType: wanted.attributesType, attributes: wanted.attributes, wanted: wanted.shown,
                state: .starting,
                createdAt: now)
        next.attributesType = wanted.attributesType
        next.attributes = wanted.attributes
        next.wanted = wanted.shown
        next.renewBefore = wanted.renewBefore
        next.pending = false
        next.activityID = nil
        next.finalContentState = nil
        next.dismissalDate = nil
        var content = Self.content(wanted, kind: .start)
        content.attributes = Self.attributes(wanted.attributes, key: key)
        let tokens = try await stored { () async throws(PushStoreError) in
            try await store.pushToStartTokens(forUser: userID, attributesType: wanted.attributesType)
        }.filter { $0.tokenState.isValid }
        guard !tokens.isEmpty else {
            return try await refuse(
                next, over: previous, reason: "noPushToStartToken",
                message:
                    "user '\(userID)' has no valid push-to-start token for '\(wanted.attributesType)'; the app stores one with PUT /v1/push-to-start-tokens",
                notStarted: true)
        }
        let within = try await pushes.reserveStartBudget(tokens, now: now)
        guard !within.isEmpty else {
            return try await refuse(
                next, over: previous, reason: "pushToStartBudget",
                message: "every device of user '\(userID)' had its \(pushes.settings.pushToStartBudget.budget) push-to-start pushes of the window",
                notStarted: true)
        }
        do {
            try await pushes.checkStartContentState(content, tokens: within.map(\.token), target: "user:" + userID)
        } catch  where error.kind == .undecodable {
            await pushes.releaseStartBudget(within)
            return try await refuse(next, over: previous, reason: "contentStateShape", message: error.message, notStarted: true)
        }
        next.state = .starting
        next.reason = nil
        next.startTokenIDs = within.map(\.token.id)
        next.startedAt = now
        // Written first: the app may register the new activity before the start's answer is back.
        guard let saved = try await save(next, over: previous, event: "started", wanted) else {
            await pushes.releaseStartBudget(within)
            return nil
        }
        let accepted: SendAcceptance
        do {
            accepted = try await pushes.acceptStart(
                content, tokens: within.map(\.token), skipped: [], pushIDs: ReservedStart.pushIDs(within))
        } catch {
            await pushes.releaseStartBudget(within)
            _ = try await refuse(saved, over: saved, reason: "startRefused", message: error.message, notStarted: true)
            throw error
        }
        pushes.logger.info("live activity starting", metadata: ["userId": "\(userID)", "key": "\(key)", "devices": "\(within.count)"])
        return Answer(outcome: .started, resource: saved, pushIDs: accepted.pushIDs)
    }

    /// Records a refusal over `previous` (nil: none stored). An update that cannot be sent leaves the
    /// resource as it was; a start that cannot be made makes it `refused`, with the webhook's
    /// `liveActivity.notStarted` in the same transaction.
    private func refuse(
        _ next: LiveActivityResourceRecord, over previous: LiveActivityResourceRecord?, reason: String, message: String, notStarted: Bool
    ) async throws(DomainError) -> Answer? {
        let now = pushes.clock.now()
        var record = next
        if notStarted {
            record.state = .refused
            record.reason = reason
        }
        record.updatedAt = now
        let facts = notStarted ? [WebhookFact.liveActivityNotStarted(userID: record.userID, key: record.key, reason: reason, at: now)] : []
        let journal = pushes.events.tokenJournal
        let event = LiveActivityResourceEvent(outcome: "refused", at: now, reason: reason, activityID: record.activityID)
        let saved = try await stored { () async throws(PushStoreError) in
            try await store.saveLiveActivityResource(record, expectedVersion: previous?.version, event: event, facts: facts, journal: journal)
        }
        guard let saved else { return nil }
        if !facts.isEmpty { pushes.events.committed(facts.count) }
        pushes.logger.notice("live activity refused", metadata: ["userId": "\(record.userID)", "key": "\(record.key)", "reason": "\(reason)"])
        return Answer(outcome: .refused, reason: reason, message: message, resource: saved)
    }

    // MARK: DELETE

    func end(user userID: String, key: String, contentState: JSONValue?, dismissalDate: Date?) async throws(DomainError) -> Answer {
        for _ in 0..<Self.attempts {
            guard let previous = try await current(user: userID, key: key) else { throw Self.notFound(userID, key) }
            let running = try await running(previous)
            var next = previous
            next.finalContentState = contentState
            next.dismissalDate = dismissalDate
            if let contentState, var shown = next.wanted.objectValue {
                shown["contentState"] = contentState
                next.wanted = .object(shown)
            }
            switch LiveActivityResourceRules.endStep(stored: previous, running: running) {
            case .unchanged:
                return Answer(outcome: .unchanged, resource: previous)
            case .markEnded:
                next.state = .ended
                if let saved = try await save(next, over: previous, event: "ended", nil) { return Answer(outcome: .unchanged, resource: saved) }
            case .endOnArrival:
                next.state = .ending
                if let saved = try await save(next, over: previous, event: "ended", nil) { return Answer(outcome: .ended, resource: saved) }
            case .end(let activityID):
                next.state = .ended
                next.pending = false
                guard let saved = try await save(next, over: previous, event: "ended", nil) else { continue }
                let content = PushContent(
                    contentState: contentState, requestedPriority: .conservesPower, importance: .routine, dismissalDate: dismissalDate)
                let accepted = try await pushes.send(.end, toActivity: activityID, content)
                return Answer(outcome: .ended, resource: saved, pushIDs: accepted.pushIDs)
            }
        }
        throw .conflict("key", "concurrent", "the Live Activity under this key changed during the request, again and again; send it again")
    }

    // MARK: Registration

    /// After the app registered an activity: links it to the user's resource whose start it answers (the
    /// one `key` names, else the oldest start still waiting for this type), then sends what the backend
    /// asked for since the start, or the end it asked for. True when it linked one.
    @discardableResult
    func registered(_ activity: ActivityRecord, key: String?) async throws(DomainError) -> Bool {
        guard let userID = activity.userID else { return false }
        for _ in 0..<Self.attempts {
            let waiting: [LiveActivityResourceRecord]
            if let key {
                waiting =
                    try await stored { () async throws(PushStoreError) in try await store.liveActivityResource(userID: userID, key: key) }
                    .map { [$0] } ?? []
            } else {
                waiting = try await stored { () async throws(PushStoreError) in
                    try await store.waitingLiveActivityResources(userID: userID, attributesType: activity.attributesType)
                }
            }
            guard let resource = LiveActivityResourceRules.resourceAnswered(by: activity, waiting: waiting) else { return false }
            var next = resource
            let ending = resource.state == .ending
            next.state = ending ? .ended : .active
            next.activityID = activity.activityID
            next.activityIDs.append(activity.activityID)
            next.pending = false
            let event = LiveActivityResourceEvent(outcome: "registered", at: pushes.clock.now(), activityID: activity.activityID)
            guard let saved = try await write(next, over: resource, event: event) else { continue }
            pushes.logger.info(
                "live activity registered", metadata: ["userId": "\(userID)", "key": "\(resource.key)", "activityId": "\(activity.activityID)"])
            if ending {
                let content = PushContent(
                    contentState: resource.finalContentState, requestedPriority: .conservesPower, importance: .routine,
                    dismissalDate: resource.dismissalDate)
                _ = try await pushes.send(.end, toActivity: activity.activityID, content)
                return true
            }
            if let renewBefore = resource.renewBefore {
                let wanted = WantedLiveActivity(resource)
                _ = try await stored { () async throws(PushStoreError) in
                    try await store.planRenewal(
                        RenewalPlan(
                            activityID: activity.activityID, userID: userID, attributesType: activity.attributesType, renewBefore: renewBefore,
                            attributes: Self.attributes(resource.attributes, key: resource.key), alert: wanted.alert ?? .object([:])))
                }
            }
            if !resource.pending {
                // The activity shows what its start carried: the server's record of it (the state a renewal
                // or the end at its limit sends) says so too.
                let started = resource.startedAt ?? pushes.clock.now()
                let state = WantedLiveActivity(resource).contentState
                _ = try await stored { () async throws(PushStoreError) in
                    try await store.recordContentState([(activity.activityID, started)], contentState: state, acceptedAt: started)
                }
            } else {
                let wanted = WantedLiveActivity(resource)
                _ = try await pushes.send(.update, toActivity: activity.activityID, Self.content(wanted, kind: .update))
                let delivered = LiveActivityResourceEvent(
                    outcome: "delivered", at: pushes.clock.now(), activityID: activity.activityID, contentState: wanted.contentState)
                _ = try await write(saved, over: saved, event: delivered)
            }
            return true
        }
        return false
    }

    // MARK: GET

    /// The resource and its newest steps; 404 for none (another user's key is another resource).
    func resource(user userID: String, key: String, historyLimit: Int = 20) async throws(DomainError) -> (
        resource: LiveActivityResourceRecord, history: [LiveActivityResourceEvent]
    ) {
        guard let record = try await current(user: userID, key: key) else { throw Self.notFound(userID, key) }
        let history = try await stored { () async throws(PushStoreError) in
            try await store.liveActivityResourceHistory(userID: userID, key: key, limit: historyLimit)
        }
        return (record, history)
    }

    // MARK: Reading and writing

    static func notFound(_ userID: String, _ key: String) -> DomainError {
        .notFound("key", "user '\(userID)' has no Live Activity under key '\(key)'; PUT /v1/users/{userId}/live-activities/{key} makes one")
    }

    /// The stored resource, its activity moved to the newest of its renewal chain (recorded as `renewed`).
    private func current(user userID: String, key: String) async throws(DomainError) -> LiveActivityResourceRecord? {
        guard let record = try await stored({ () async throws(PushStoreError) in try await store.liveActivityResource(userID: userID, key: key) })
        else { return nil }
        guard record.state == .active, let id = record.activityID,
            let activity = try await stored({ () async throws(PushStoreError) in try await store.activity(id: id) }), activity.state != .active
        else { return record }
        let head = try await pushes.renewalHead(activity)
        guard head.activityID != id else { return record }
        var next = record
        next.activityID = head.activityID
        next.activityIDs.append(head.activityID)
        let event = LiveActivityResourceEvent(outcome: "renewed", at: pushes.clock.now(), activityID: head.activityID)
        if let saved = try await write(next, over: record, event: event) { return saved }
        // Another request recorded it first.
        return try await stored { () async throws(PushStoreError) in try await store.liveActivityResource(userID: userID, key: key) }
    }

    /// The active activity of an active resource, if it is still active.
    private func running(_ record: LiveActivityResourceRecord?) async throws(DomainError) -> ActivityRecord? {
        guard let record, record.state == .active, let id = record.activityID else { return nil }
        let activity = try await stored { () async throws(PushStoreError) in try await store.activity(id: id) }
        return activity?.state == .active ? activity : nil
    }

    /// Writes `next` over `previous` (nil: a new resource) with a step of `outcome`; nil when another write came first.
    private func save(
        _ next: LiveActivityResourceRecord, over previous: LiveActivityResourceRecord?, event outcome: String, _ wanted: WantedLiveActivity?
    )
        async throws(DomainError) -> LiveActivityResourceRecord?
    {
        let event = LiveActivityResourceEvent(
            outcome: outcome, at: pushes.clock.now(), activityID: next.activityID, contentState: wanted?.contentState ?? next.finalContentState)
        return try await write(next, over: previous, event: event)
    }

    private func write(_ next: LiveActivityResourceRecord, over previous: LiveActivityResourceRecord?, event: LiveActivityResourceEvent)
        async throws(DomainError) -> LiveActivityResourceRecord?
    {
        var record = next
        record.updatedAt = event.at
        return try await stored { () async throws(PushStoreError) in
            try await store.saveLiveActivityResource(record, expectedVersion: previous?.version, event: event, facts: [], journal: nil)
        }
    }

    // MARK: Payloads

    /// The attributes a start carries: the backend's, plus `livePushKey` (the key), which an app's
    /// ActivityAttributes may declare so that LivePushKit reports it with the registration.
    static func attributes(_ attributes: JSONValue, key: String) -> JSONValue {
        var fields = attributes.objectValue ?? [:]
        fields["livePushKey"] = .string(key)
        return .object(fields)
    }

    /// The push for `wanted`: a start is time-sensitive and asks for the new activity's update token; an
    /// update is routine unless it carries an alert.
    static func content(_ wanted: WantedLiveActivity, kind: LiveActivityEvent) -> PushContent {
        let alert = wanted.alert.map(LiveActivityAlert.init(stored:))
        let loud = kind == .start || alert != nil
        return PushContent(
            contentState: wanted.contentState, requestedPriority: loud ? .immediate : .conservesPower, importance: loud ? .timeSensitive : .routine,
            alert: alert, staleDate: wanted.staleDate, relevanceScore: wanted.relevanceScore,
            attributesType: kind == .start ? wanted.attributesType : nil, attributes: kind == .start ? wanted.attributes : nil,
            inputPushToken: kind == .start)
    }
}
