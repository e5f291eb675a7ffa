import APNsCore
import Foundation
import LiveActivity
import PushStore

extension PushService {
    /// Updates or ends every activity subscribed to a channel with one broadcast. A broadcast cannot
    /// start an activity. Priority 10 counts against the channel's hourly budget: a channel that stores
    /// no message has the larger one (APNs gives such channels the higher publishing budget).
    func send(_ kind: LiveActivityEvent, toChannel channel: ChannelRecord, _ content: PushContent) async throws(DomainError) -> SendAcceptance {
        guard !channel.isDeleted else {
            throw .conflict("channelId", "deleted", "channel '\(channel.id.lowercased)' was deleted; APNs takes no broadcasts to it")
        }
        return try await acceptBroadcasts(try await broadcastItems(kind, to: [channel], content))
    }

    /// Writes broadcast items to the outbox; the answer lists their ids and downgrades.
    func acceptBroadcasts(_ items: [OutboxItem]) async throws(DomainError) -> SendAcceptance {
        var answer = SendAcceptance()
        answer.downgraded = items.compactMap { item in item.downgradeReason.map { .init(pushID: item.pushID, reason: $0) } }
        try await enqueue(items, into: &answer)
        return answer
    }

    /// One outbox item per channel, each with its own increasing timestamp and budget decision.
    func broadcastItems(_ kind: LiveActivityEvent, to channels: [ChannelRecord], _ body: PushContent) async throws(DomainError) -> [OutboxItem] {
        guard kind != .start else { throw .invalid(nil, "broadcastStart", "a broadcast cannot start an activity; use push-to-start") }
        try await checkBroadcastContentState(kind, body, channels: channels.filter { !$0.isDeleted })
        let now = clock.now()
        var items: [OutboxItem] = []
        for channel in channels where !channel.isDeleted {
            let key = "channel:" + channel.id.lowercased
            let timestamp = timestamps.next(for: key, now: now, stored: nil)
            let data = try body.validatedPayload(kind: kind, timestamp: timestamp)
            var decision: BudgetDecision?
            if body.requestedPriority == .immediate {
                let limit = settings.priorityBudget.limit(for: channel)
                let decisions = try await stored { () async throws(PushStoreError) in
                    try await store.consumeHighPriority([(activityID: key, limit: limit)], at: now)
                }
                decision = decisions[key]
            }
            let (priority, downgrade) = PriorityBudgetRule.priority(body.requestedPriority, forChannel: decision)
            items.append(
                OutboxItem(
                    target: .channel(id: channel.id), kind: kind, payload: data, priority: priority, requestedPriority: body.requestedPriority,
                    importance: body.importance, downgradeReason: downgrade, collapseKey: nil,
                    expiration: channel.storagePolicy == 0
                        ? nil : (body.expiration ?? now.addingTimeInterval(min(settings.defaultExpiration, 8 * 3600))),
                    acceptedAt: now))
        }
        return items
    }
}

extension PushService {
    /// The live channel a push-to-start subscribes the new activity to: ours, of the same app.
    func subscriptionChannel(_ text: String, for tokens: [PushToStartTokenRecord]) async throws(DomainError) -> ChannelRecord {
        guard let id = UUID(uuidString: text),
            let channel = try await stored({ () async throws(PushStoreError) in try await store.channel(id: id) })
        else {
            throw .notFound("inputPushChannel", "no channel '\(text)' is stored; give the id POST /v1/channels answered")
        }
        guard !channel.isDeleted else {
            throw .conflict("inputPushChannel", "deleted", "channel '\(text)' was deleted; an activity cannot subscribe to it")
        }
        if let other = tokens.first(where: { $0.bundleID != channel.bundleID }) {
            throw .invalid(
                "inputPushChannel", "bundleId",
                "channel '\(text)' belongs to \(channel.bundleID) but the push-to-start token of device '\(other.deviceID)' is for \(other.bundleID)")
        }
        return channel
    }
}
