import Foundation
import PushStore

extension OutboxQueue {
    /// One attempt at each push of a claimed outbox batch: an expired push or one without a target gets
    /// its final result at once, broadcasts go through APNs' broadcast route, and the device pushes go as
    /// one batch (no task per push). Returns what to record: final results, retries and refused tokens,
    /// which the worker writes in one store call. An activity target is as the claim read it.
    func attempt(_ claimed: [ClaimedPush]) async -> OutboxSettlement {
        let now = context.clock.now()
        var verdicts: [DeviceDelivery.Verdict] = []
        var devicePushes: [DeviceDelivery.DevicePush] = []
        var broadcasts: [(item: OutboxItem, channelID: UUID)] = []
        for push in claimed {
            let item = push.item
            if let expiration = item.expiration, expiration <= now {
                let reason = item.lastError.map { "expired; last error: \($0)" } ?? "expired before it could be sent"
                verdicts.append(.final(DeliveryResult(pushID: item.pushID, outcome: .expired, reason: reason, attempts: item.attempts)))
                continue
            }
            if case .channel(let channelID) = item.target {
                broadcasts.append((item, channelID))
                continue
            }
            switch await resolve(push) {
            case .success(let target):
                devicePushes.append(DeviceDelivery.DevicePush(item: item, target: target))
            case .failure(let failure) where failure.retryable:
                verdicts.append(
                    delivery.retryLater(
                        item, attempts: item.attempts, backoffAfter: item.attempts + 1, lastError: failure.reason, status: nil, at: now))
            case .failure(let failure):
                verdicts.append(.final(DeliveryResult(pushID: item.pushID, outcome: .failed, reason: failure.reason, attempts: item.attempts)))
            }
        }
        let sent = await send(devicePushes, broadcasts: broadcasts)
        var settlement = OutboxSettlement(invalidations: sent.invalidations)
        for verdict in verdicts + sent.verdicts {
            switch verdict {
            case .final(let result): settlement.results.append(result)
            case .retry(let item): settlement.retries.append(item)
            }
        }
        return settlement
    }

    /// The device pushes as one batch and, beside it, each broadcast (one request to APNs' broadcast route
    /// for a whole channel, which the batch cannot carry).
    private func send(_ pushes: [DeviceDelivery.DevicePush], broadcasts: [(item: OutboxItem, channelID: UUID)]) async
        -> (verdicts: [DeviceDelivery.Verdict], invalidations: [TokenInvalidation])
    {
        guard !broadcasts.isEmpty else {
            let delivered = await delivery.deliver(pushes)
            return (delivered.verdicts.map(\.verdict), delivered.invalidations)
        }
        async let broadcasted = withTaskGroup(of: DeviceDelivery.Verdict.self) { group in
            for (item, channelID) in broadcasts {
                group.addTask { await self.broadcast(item, channelID: channelID) }
            }
            return await group.reduce(into: [DeviceDelivery.Verdict]()) { $0.append($1) }
        }
        let delivered = await delivery.deliver(pushes)
        return (delivered.verdicts.map(\.verdict) + (await broadcasted), delivered.invalidations)
    }

    struct TargetFailure: Error {
        var reason: String
        /// A store failure, not a fact about the target: try again later.
        var retryable = false
    }

    /// The current token and bundle id of the push's target, read at send time (so a rotated token is used):
    /// an activity's as the claim read it, a push-to-start token's from the store.
    private func resolve(_ push: ClaimedPush) async -> Result<DeviceDelivery.ResolvedTarget, TargetFailure> {
        let item = push.item
        do {
            switch item.target {
            case .activity:
                guard let activity = push.activity else {
                    return .failure(TargetFailure(reason: "activity is no longer registered"))
                }
                if let refusal = Eligibility.refusalToSend(activity) {
                    return .failure(TargetFailure(reason: refusal))
                }
                return .success(DeviceDelivery.ResolvedTarget(token: activity.pushToken, bundleID: activity.bundleID))
            case .pushToStartToken(let id):
                guard let record = try await store.pushToStartToken(id: id) else {
                    return .failure(TargetFailure(reason: "push-to-start token is no longer stored"))
                }
                if case .invalid(let reason, _) = record.tokenState {
                    return .failure(TargetFailure(reason: "push-to-start token invalid (\(reason))"))
                }
                return .success(DeviceDelivery.ResolvedTarget(token: record.token, bundleID: record.bundleID))
            case .channel:
                return .failure(TargetFailure(reason: "a channel push is a broadcast, not a device push"))
            }
        } catch {
            return .failure(TargetFailure(reason: "store error while resolving the target: \(error)", retryable: true))
        }
    }
}
