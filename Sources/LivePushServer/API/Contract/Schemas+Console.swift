import Foundation
import PushStore

// The operator routes' answers (`/v1/operator/…`) made from the domain's console types; an activity, a
// push, a token or a send in them is the same contract type the other routes answer with.

extension Schemas.OperatorOverview {
    init(_ overview: ConsoleOverview) {
        var rates: [String: Double] = [:]
        for (outcome, rate) in overview.pushesPerSecond { rates[outcome.rawValue] = (rate * 100).rounded() / 100 }
        self.init(
            at: overview.at, pushesPerSecond: PushesPerSecondPayload(additionalProperties: rates),
            failures: overview.failures.map { FailuresPayloadPayload(reason: $0.reason, count: $0.count, remedy: $0.remedy) },
            downgradesLastHour: overview.downgradesLastHour, outboxDepth: overview.outboxDepth, openGroupSends: overview.openGroupSends,
            webhookDepth: overview.webhookDepth,
            channels: overview.channels.map { ChannelsPayloadPayload(bundleId: $0.bundleID, count: $0.count, limit: ConsoleService.channelLimit) },
            instances: overview.instances.map { instance in
                InstancesPayloadPayload(
                    instanceId: instance.id, thisInstance: instance.isThis, outbox: instance.rows[.outbox] ?? 0,
                    groupPages: instance.rows[.groupPages] ?? 0, webhooks: instance.rows[.webhooks] ?? 0, leaseUntil: instance.until)
            })
    }
}

extension Schemas.OperatorActivity {
    init(_ found: ConsoleActivity) throws(APIError) {
        let ids = found.deliveries.map(\.pushID) + found.pending.map(\.pushID)
        self.init(
            activity: try Schemas.Activity(found.activity), tokenSince: found.tokenSince,
            tokenAgeSeconds: Int(max(0, found.at.timeIntervalSince(found.tokenSince))), deliveries: try found.deliveries.map(Schemas.Delivery.init),
            pending: try found.pending.map(Schemas.Pending.init), consolePushIds: ids.filter { found.fromConsole.contains($0) }.map(\.lowercased),
            pushToStartTokens: try found.pushToStartTokens.map { (token) throws(APIError) in
                let age = max(0, found.at.timeIntervalSince(token.updatedAt))
                return PushToStartTokensPayloadPayload(
                    token: try Schemas.PushToStartTokenStored(token), ageSeconds: Int(age),
                    stale: !token.tokenState.isValid || age > ConsoleService.staleTokenAge)
            },
            budget: BudgetPayload(used: found.budget.used, limit: found.budget.limit, left: max(0, found.budget.limit - found.budget.used)),
            refusals: try found.refusals.map { (refusal) throws(APIError) in
                RefusalsPayloadPayload(
                    field: refusal.field, rule: try contractValue(RawText(refusal.rule), "refusals.rule"), message: refusal.message, at: refusal.at)
            })
    }
}

extension Schemas.OperatorContentStates {
    init(shapes: [StoredContentStateShape], refusals: [ContentStateRefusalCount]) throws(APIError) {
        self.init(
            shapes: try shapes.map(Schemas.ContentStateShapeRecord.init),
            refusals: try refusals.map { (count) throws(APIError) in
                RefusalsPayloadPayload(
                    bundleId: count.bundleID, attributesType: count.attributesType, field: count.field,
                    rule: try contractValue(RawText(count.rule), "refusals.rule"), refusals: count.refusals, lastTarget: count.lastTarget,
                    lastMessage: count.lastMessage, lastAt: count.lastAt)
            })
    }
}

/// A stored word (a rule) as a raw value, for ``contractValue(_:_:)``.
private struct RawText: RawRepresentable {
    var rawValue: String
    init(_ text: String) { rawValue = text }
    init?(rawValue: String) { self.rawValue = rawValue }
}

extension Schemas.OperatorSendList.BroadcastsPayloadPayload {
    /// A live broadcast channel with its waiting and newest done broadcasts.
    init(_ found: ChannelBroadcasts) throws(APIError) {
        self.init(
            channelId: found.channel.id.lowercased, name: found.channel.name, bundleId: found.channel.bundleID, groupId: found.channel.groupID,
            pending: try found.pending.map(Schemas.Pending.init), deliveries: try found.deliveries.map(Schemas.Delivery.init))
    }
}

extension Schemas.OperatorSeries {
    /// The minutes with their counts and, when they have samples, p50 and p99 in milliseconds (to 0.1 ms).
    init(_ series: ConsoleSeries) {
        func milliseconds(_ seconds: TimeInterval?) -> Double? { seconds.map { ($0 * 10_000).rounded() / 10 } }
        self.init(
            at: series.at,
            minutes: series.minutes.map { minute in
                MinutesPayloadPayload(
                    start: minute.start,
                    counts: MinutesPayloadPayload.CountsPayload(
                        accepted: minute.counts[.accepted] ?? 0, rejected: minute.counts[.rejected] ?? 0, failed: minute.counts[.failed] ?? 0,
                        expired: minute.counts[.expired] ?? 0, coalesced: minute.counts[.coalesced] ?? 0),
                    latencySamples: minute.latency.total, latencyP50Ms: milliseconds(minute.latency.percentile(0.5)),
                    latencyP99Ms: milliseconds(minute.latency.percentile(0.99)))
            })
    }
}

extension Schemas.OperatorSend {
    init(_ found: ConsoleSend) throws(APIError) {
        self.init(
            send: try Schemas.GroupSend(found.send),
            failed: try found.failed.map { (entry) throws(APIError) in
                FailedPayloadPayload(activityId: entry.activityID, delivery: try Schemas.Delivery(entry.record))
            },
            skipped: found.skipped.map { SkippedPayloadPayload(activityId: $0.activityID, reason: $0.reason) })
    }
}
