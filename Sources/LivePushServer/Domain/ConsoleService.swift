import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore

/// What the provider console reads and its one write, free of any transport: the overview figures,
/// pages of activities and group sends, an activity with everything an operator asks about it, and a
/// test update to one activity recorded as sent from the console.
struct ConsoleService: Sendable {
    /// Apple's limit of broadcast channels per bundle id.
    static let channelLimit = 10_000
    /// A push-to-start token the app has not reported for this long is flagged stale: apps report their
    /// tokens at every launch, and iOS may have replaced it since.
    static let staleTokenAge: TimeInterval = 7 * 24 * 3600
    /// The window of the rates (pushes per second) and of the failures and downgrades.
    static let rateWindow: TimeInterval = 60
    static let failureWindow: TimeInterval = 3600

    let store: any PushStore
    let pushes: PushService
    let settings: ConsoleSettings
    let clock: any WallClock
    let logger: Logger

    // MARK: Overview

    func overview() async throws(DomainError) -> ConsoleOverview {
        let now = clock.now()
        let store = store
        let recent = try await stored { () async throws(PushStoreError) in try await store.deliveryTallies(since: now - Self.rateWindow) }
        let hour = try await stored { () async throws(PushStoreError) in try await store.deliveryTallies(since: now - Self.failureWindow) }
        var rates: [DeliveryOutcome: Double] = [:]
        for tally in recent { rates[tally.outcome, default: 0] += Double(tally.count) / Self.rateWindow }
        var failures: [String: Int] = [:]
        for tally in hour where tally.outcome == .rejected || tally.outcome == .failed || tally.outcome == .expired {
            failures[tally.reason ?? tally.outcome.rawValue, default: 0] += tally.count
        }
        return ConsoleOverview(
            at: now,
            pushesPerSecond: DeliveryOutcome.allCases.map { ($0, rates[$0] ?? 0) },
            failures: failures.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { reason, count in
                ConsoleOverview.Failure(reason: reason, count: count, remedy: Self.remedy(reason))
            },
            downgradesLastHour: hour.reduce(0) { $0 + $1.downgraded },
            outboxDepth: try await stored { () async throws(PushStoreError) in try await store.outboxDepth() },
            openGroupSends: try await stored { () async throws(PushStoreError) in try await store.openGroupSendCount() },
            webhookDepth: try await stored { () async throws(PushStoreError) in try await store.webhookDepth() },
            channels: try await stored { () async throws(PushStoreError) in try await store.channelCounts() }.sorted { $0.key < $1.key }
                .map { (bundleID: $0.key, count: $0.value) },
            instances: Self.instances(
                try await stored { () async throws(PushStoreError) in try await store.leaseHoldings(now: now) }, this: settings.instanceID))
    }

    /// The leases by instance: this one first (holding leases or not), then the others by id. A claimer
    /// is `<instance id>-w<n>` (a delivery worker) or `<instance id>-webhook`.
    static func instances(_ holdings: [LeaseHolding], this: String) -> [ConsoleOverview.Instance] {
        var found: [String: ConsoleOverview.Instance] = [this: ConsoleOverview.Instance(id: this, isThis: true, rows: [:], until: nil)]
        for holding in holdings {
            let id = instanceID(ofClaimer: holding.owner)
            var instance = found[id] ?? ConsoleOverview.Instance(id: id, isThis: false, rows: [:], until: nil)
            instance.rows[holding.queue, default: 0] += holding.rows
            instance.until = max(instance.until ?? holding.until, holding.until)
            found[id] = instance
        }
        return found.values.sorted { ($0.isThis ? 0 : 1, $0.id) < ($1.isThis ? 0 : 1, $1.id) }
    }

    /// The instance of a claimer: its name without the worker's suffix.
    static func instanceID(ofClaimer owner: String) -> String {
        if owner.hasSuffix("-webhook") { return String(owner.dropLast("-webhook".count)) }
        if let dash = owner.lastIndex(of: "-"), owner[owner.index(after: dash)...].first == "w" {
            let number = owner[owner.index(dash, offsetBy: 2)...]
            if !number.isEmpty, number.allSatisfy(\.isNumber) { return String(owner[..<dash]) }
        }
        return owner
    }

    /// What to do about an APNs reason, as `APNsCore` words it; nil for reasons that are not APNs' own.
    static func remedy(_ reason: String) -> String? {
        let known = APNsReason(rawValue: reason)
        if case .other = known { return nil }
        return known.remedy
    }

    // MARK: Lists

    func activities(_ query: ActivityPageQuery) async throws(DomainError) -> (activities: [ActivityRecord], next: String?) {
        let store = store
        var query = query
        query.limit += 1  // one more tells whether another page follows
        let found = try await stored { () async throws(PushStoreError) in try await store.activityPage(query) }
        let page = Array(found.prefix(query.limit - 1))
        return (page, found.count > page.count ? page.last.map { ConsoleCursor.activity(after: $0.activityID) } : nil)
    }

    /// The group sends and audience starts, newest first, in one list paged by acceptance time and id.
    func sends(cursor: String?, limit: Int) async throws(DomainError) -> (sends: [SendStatus], next: String?) {
        let before = try cursor.map { (text) throws(DomainError) in try ConsoleCursor.groupSend(text) }
        let store = store
        let groups = try await stored { () async throws(PushStoreError) in try await store.groupSendPage(before: before, limit: limit + 1) }
        let starts = try await stored { () async throws(PushStoreError) in
            try await store.audienceStartPage(before: before, limit: limit + 1)
        }
        let merged = (groups.map { SendStatus.group(GroupSendStatus($0, broadcastPushIDs: [])) } + starts.map { .audience(AudienceStartStatus($0)) })
            .sorted { ($0.acceptedAt, $0.sendID.lowercased) > ($1.acceptedAt, $1.sendID.lowercased) }
        let page = Array(merged.prefix(limit))
        let next = merged.count > page.count ? page.last.map { ConsoleCursor.send(after: $0.acceptedAt, id: $0.sendID) } : nil
        return (page, next)
    }

    /// The newest live channels (up to 50) with their waiting broadcasts and their newest 5 done ones.
    func broadcasts() async throws(DomainError) -> [ChannelBroadcasts] {
        let store = store
        return try await stored { () async throws(PushStoreError) in try await store.recentBroadcasts(channels: 50, perChannel: 5) }
    }

    // MARK: One activity

    func activity(id activityID: String) async throws(DomainError) -> ConsoleActivity {
        let store = store
        let now = clock.now()
        guard let activity = try await stored({ () async throws(PushStoreError) in try await store.activity(id: activityID) }) else {
            throw .notFound("activityId", "no activity '\(activityID)' is registered")
        }
        let limit = settings.historyLimit
        let deliveries = try await stored { () async throws(PushStoreError) in try await store.deliveries(activityID: activityID, limit: limit) }
        let pending = try await stored { () async throws(PushStoreError) in try await store.pendingItems(activityID: activityID) }
        let ids = deliveries.map(\.pushID) + pending.map(\.pushID)
        let fromConsole = try await stored { () async throws(PushStoreError) in try await store.consolePushes(among: ids) }
        var tokens: [PushToStartTokenRecord] = []
        if let user = activity.userID {
            tokens = try await stored { () async throws(PushStoreError) in
                try await store.pushToStartTokens(forUser: user, attributesType: activity.attributesType)
            }
        }
        let used = try await stored { () async throws(PushStoreError) in
            try await store.priority10Count(activityID: activityID, after: now - 3600)
        }
        let budget = settings.priorityBudget.limit(for: activity)
        let tokenSince = try await stored { () async throws(PushStoreError) in try await store.currentTokenSince(activityID: activityID) }
        let refusals = try await stored { () async throws(PushStoreError) in try await store.contentStateRefusals(activityID: activityID) }
        return ConsoleActivity(
            activity: activity, tokenSince: tokenSince ?? activity.registeredAt, deliveries: deliveries, pending: pending, fromConsole: fromConsole,
            pushToStartTokens: tokens,
            budget: (used: used, limit: budget), refusals: refusals, at: now)
    }

    /// Each attributes type's ContentState shape and the refusals by field and rule.
    func contentStates() async throws(DomainError) -> (shapes: [StoredContentStateShape], refusals: [ContentStateRefusalCount]) {
        let store = store
        let shapes = try await stored { () async throws(PushStoreError) in try await store.contentStateShapes(bundleIDs: nil) }
        let refusals = try await stored { () async throws(PushStoreError) in try await store.contentStateRefusalCounts(bundleIDs: nil) }
        return (shapes, refusals)
    }

    /// Sends an update with `contentState` to one activity at priority 5 (the test spends none of its
    /// priority-10 budget), once `confirmation` repeats the activity id, and records it as the console's.
    func testPush(activityID: String, confirmation: String, contentState: JSONValue, sentBy: String) async throws(DomainError) -> SendAcceptance {
        let store = store
        // A missing activity is 404 whatever the confirmation says.
        guard let activity = try await stored({ () async throws(PushStoreError) in try await store.activity(id: activityID) }) else {
            throw .notFound("activityId", "no activity '\(activityID)' is registered")
        }
        guard confirmation == activityID else {
            throw .conflict(
                "confirmActivityId", "confirm",
                "'confirmActivityId' must repeat the activity id '\(activityID)' to confirm the test push to a user's device")
        }
        // The push goes to the activity confirmed: a renewed one's sends would reach the newest of its
        // chain, which the operator did not confirm.
        let head = try await pushes.renewalHead(activity)
        guard head.activityID == activityID else {
            throw .conflict(
                "activityId", "renewed",
                "activity '\(activityID)' was renewed: a push to it would reach '\(head.activityID)', the newest of its chain; open '\(head.activityID)' and confirm that one"
            )
        }
        let content = PushContent(contentState: contentState, requestedPriority: .conservesPower, importance: .timeSensitive)
        let accepted = try await pushes.send(.update, toActivity: activityID, content)
        let now = clock.now()
        try await stored { () async throws(PushStoreError) in try await store.recordConsolePushes(accepted.pushIDs, sentBy: sentBy, at: now) }
        logger.info("console test push accepted", metadata: ["activityId": "\(activityID)", "by": "\(sentBy)"])
        return accepted
    }
}

/// The overview's figures.
struct ConsoleOverview: Sendable {
    struct Failure: Sendable {
        var reason: String
        var count: Int
        var remedy: String?
    }

    var at: Date
    /// Deliveries per second over the last minute, by outcome.
    var pushesPerSecond: [(outcome: DeliveryOutcome, rate: Double)]
    /// Over the last hour, most first.
    var failures: [Failure]
    var downgradesLastHour: Int
    var outboxDepth: Int
    var openGroupSends: Int
    var webhookDepth: Int
    var channels: [(bundleID: String, count: Int)]
    var instances: [Instance]

    /// An instance and the rows its claimers hold, by queue.
    struct Instance: Sendable {
        var id: String
        var isThis: Bool
        var rows: [LeaseHolding.Queue: Int]
        var until: Date?
    }
}

/// One activity as the console shows it.
struct ConsoleActivity: Sendable {
    var activity: ActivityRecord
    /// When its current token arrived: registration or its last rotation.
    var tokenSince: Date
    var deliveries: [DeliveryRecord]
    var pending: [OutboxItem]
    /// Of the deliveries and pending pushes, those the console sent.
    var fromConsole: Set<UUID>
    var pushToStartTokens: [PushToStartTokenRecord]
    /// Priority-10 pushes in the last hour and the hourly budget.
    var budget: (used: Int, limit: Int)
    /// Its sends refused for a content-state it could not decode, newest first.
    var refusals: [ContentStateRefusal]
    var at: Date
}
