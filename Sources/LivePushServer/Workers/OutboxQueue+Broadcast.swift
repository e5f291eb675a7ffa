import APNsCore
import Foundation
import PushStore

extension OutboxQueue {
    /// Sends one claimed broadcast: to the channel's subscribers, through APNs' broadcast route. A deleted
    /// or unknown channel gets nothing more; 429, 5xx and lost connections are retried with the outbox's
    /// back-off; other refusals are final.
    func broadcast(_ item: OutboxItem, channelID: UUID) async -> DeviceDelivery.Verdict {
        let now = context.clock.now()
        let channel: ChannelRecord
        do {
            guard let stored = try await store.channel(id: channelID) else {
                return .final(DeliveryResult(pushID: item.pushID, outcome: .failed, reason: "channel is no longer stored", attempts: item.attempts))
            }
            channel = stored
        } catch {
            return delivery.retryLater(
                item, attempts: item.attempts, backoffAfter: item.attempts + 1, lastError: "store error while reading the channel: \(error)",
                status: nil, at: now)
        }
        guard !channel.isDeleted else {
            return .final(DeliveryResult(pushID: item.pushID, outcome: .failed, reason: "channel was deleted", attempts: item.attempts))
        }
        let attempt = BroadcastAttempt(
            bundleID: channel.bundleID, apnsChannelID: channel.apnsChannelID, payload: item.payload, priority: item.priority,
            // A channel that stores nothing takes only expiration 0 (BadExpirationDate otherwise).
            expiration: channel.storagePolicy == 0 ? nil : item.expiration, requestID: item.pushID)
        let answer = await delivery.sender.broadcast(attempt)
        let sentAt = context.clock.now()
        let attempts = item.attempts + 1
        switch answer {
        case .accepted(let uniqueID):
            return .final(
                DeliveryResult(
                    pushID: item.pushID, outcome: .accepted, sentAt: sentAt, apnsID: uniqueID, status: 200, attempts: attempts,
                    apnsUniqueID: uniqueID))
        case .refused(let status, let reason):
            if status == 429 || status >= 500 {
                return delivery.retryLater(item, attempts: attempts, lastError: "\(status) \(reason)", status: status, at: sentAt)
            }
            if reason == APNsReason.channelNotRegistered.rawValue {
                await channelGone(channel, at: sentAt)
            }
            return .final(DeliveryResult(pushID: item.pushID, outcome: .rejected, sentAt: sentAt, status: status, reason: reason, attempts: attempts))
        case .failed(let error):
            return delivery.retryLater(item, attempts: attempts, lastError: error, status: nil, at: sentAt)
        case .interrupted:
            return delivery.interrupted(item, at: sentAt)
        case .unsupported:
            return .final(
                DeliveryResult(
                    pushID: item.pushID, outcome: .failed, reason: "the APNs sender of this server does not send broadcasts", attempts: item.attempts)
            )
        }
    }

    /// APNs no longer knows the channel (deleted elsewhere, or the app's broadcast capability turned off):
    /// marked deleted so nothing more is accepted for it.
    private func channelGone(_ channel: ChannelRecord, at date: Date) async {
        do {
            _ = try await store.markChannelDeleted(id: channel.id, at: date)
            context.logger.warning("channel is not registered with APNs; marked deleted", metadata: ["channelId": "\(channel.id.lowercased)"])
        } catch {
            context.logger.error("marking a channel deleted failed", metadata: ["channelId": "\(channel.id.lowercased)", "error": "\(error)"])
        }
    }
}
