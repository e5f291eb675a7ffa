import Foundation
import PushStore

// The operator routes' answers made from the domain's console types.

extension ConsoleOverviewView {
    init(_ overview: ConsoleOverview) {
        var rates: [String: Double] = [:]
        for (outcome, rate) in overview.pushesPerSecond { rates[outcome.rawValue] = (rate * 100).rounded() / 100 }
        self.init(
            at: overview.at, pushesPerSecond: rates,
            failures: overview.failures.map { Failure(reason: $0.reason, count: $0.count, remedy: $0.remedy) },
            downgradesLastHour: overview.downgradesLastHour, outboxDepth: overview.outboxDepth, openGroupSends: overview.openGroupSends,
            webhookDepth: overview.webhookDepth,
            channels: overview.channels.map { Channels(bundleID: $0.bundleID, count: $0.count, limit: ConsoleService.channelLimit) },
            instances: overview.instances.map { instance in
                Instance(
                    instanceID: instance.id, thisInstance: instance.isThis, outbox: instance.rows[.outbox] ?? 0,
                    groupPages: instance.rows[.groupPages] ?? 0, webhooks: instance.rows[.webhooks] ?? 0, leaseUntil: instance.until)
            })
    }
}

extension ConsoleActivityView {
    init(_ found: ConsoleActivity) {
        let ids = found.deliveries.map(\.pushID) + found.pending.map(\.pushID)
        self.init(
            activity: ActivityView(found.activity), tokenSince: found.tokenSince,
            tokenAgeSeconds: Int(max(0, found.at.timeIntervalSince(found.tokenSince))), deliveries: found.deliveries.map(DeliveryView.init),
            pending: found.pending.map(PendingView.init),
            fromConsole: ids.filter { found.fromConsole.contains($0) }.map(\.lowercased),
            pushToStartTokens: found.pushToStartTokens.map { token in
                let age = max(0, found.at.timeIntervalSince(token.updatedAt))
                return ConsolePushToStartView(
                    token: PushToStartView(token), ageSeconds: Int(age), stale: !token.tokenState.isValid || age > ConsoleService.staleTokenAge)
            },
            budget: ConsoleBudgetView(used: found.budget.used, limit: found.budget.limit, left: max(0, found.budget.limit - found.budget.used)))
    }
}

extension ConsoleBroadcastsView {
    init(_ found: ChannelBroadcasts) {
        self.init(
            channelID: found.channel.id.lowercased, name: found.channel.name, bundleID: found.channel.bundleID, groupID: found.channel.groupID,
            pending: found.pending.map(PendingView.init), deliveries: found.deliveries.map(DeliveryView.init))
    }
}
