import Foundation
import PushStore

extension DeliveryService {
    /// One attempt at each push of a claimed outbox batch: an expired push or one without a target gets
    /// its final result at once, broadcasts go through APNs' broadcast route, and the device pushes go as
    /// one batch (no task per push). Pushes to try again are rescheduled; returns the final results.
    /// `activities`: the batch's activities read at claim time (nil: each push reads its target now).
    func attempt(_ items: [OutboxItem], owner: String, activities: [String: ActivityRecord]?) async -> [DeliveryResult] {
        let now = context.clock.now()
        var verdicts: [Verdict] = []
        var devicePushes: [DevicePush] = []
        var broadcasts: [(item: OutboxItem, channelID: UUID)] = []
        for item in items {
            if let expiration = item.expiration, expiration <= now {
                let reason = item.lastError.map { "expired; last error: \($0)" } ?? "expired before it could be sent"
                verdicts.append(.final(DeliveryResult(pushID: item.pushID, outcome: .expired, reason: reason, attempts: item.attempts)))
                continue
            }
            if case .channel(let channelID) = item.target {
                broadcasts.append((item, channelID))
                continue
            }
            switch await resolve(item, activities: activities) {
            case .success(let target):
                devicePushes.append(DevicePush(item: item, target: target))
            case .failure(let failure) where failure.retryable:
                verdicts.append(
                    retryLater(item, attempts: item.attempts, backoffAfter: item.attempts + 1, lastError: failure.reason, status: nil, at: now))
            case .failure(let failure):
                verdicts.append(.final(DeliveryResult(pushID: item.pushID, outcome: .failed, reason: failure.reason, attempts: item.attempts)))
            }
        }
        verdicts += await send(devicePushes, broadcasts: broadcasts, owner: owner)
        return await settle(verdicts, owner: owner)
    }

    /// The device pushes as one batch and, beside it, each broadcast (one request to APNs' broadcast route
    /// for a whole channel, which the batch cannot carry).
    private func send(_ pushes: [DevicePush], broadcasts: [(item: OutboxItem, channelID: UUID)], owner: String) async -> [Verdict] {
        guard !broadcasts.isEmpty else { return await deliver(pushes).map(\.verdict) }
        async let broadcasted = withTaskGroup(of: Verdict.self) { group in
            for (item, channelID) in broadcasts {
                group.addTask { await self.broadcast(item, channelID: channelID) }
            }
            return await group.reduce(into: [Verdict]()) { $0.append($1) }
        }
        let delivered = await deliver(pushes).map(\.verdict)
        return delivered + (await broadcasted)
    }

    /// Reschedules the pushes to try again and returns the final results. Retries are the exception (429,
    /// 5xx, a lost connection), but when APNs has a bad moment a whole batch is one: their store calls run
    /// side by side rather than a round trip each in turn.
    private func settle(_ verdicts: [Verdict], owner: String) async -> [DeliveryResult] {
        var results: [DeliveryResult] = []
        results.reserveCapacity(verdicts.count)
        var retries: [OutboxItem] = []
        for verdict in verdicts {
            switch verdict {
            case .final(let result): results.append(result)
            case .retry(let item): retries.append(item)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for item in retries {
                group.addTask { await self.reschedule(item, owner: owner) }
            }
        }
        return results
    }

    private func reschedule(_ item: OutboxItem, owner: String) async {
        let lastError = item.lastError ?? ""
        context.logger.debug(
            "push will be retried",
            metadata: [
                "pushId": "\(item.pushID.lowercased)", "attempts": "\(item.attempts)", "error": "\(lastError)", "next": "\(item.nextAttemptAt)",
            ])
        do {
            try await store.reschedule(
                pushID: item.pushID, owner: owner, nextAttemptAt: item.nextAttemptAt, attempts: item.attempts, lastError: lastError)
        } catch {
            context.logger.error(
                "rescheduling a push failed; its claim will expire and it will be retried",
                metadata: ["pushId": "\(item.pushID.lowercased)", "error": "\(error)"])
        }
    }

    struct TargetFailure: Error {
        var reason: String
        /// A store failure, not a fact about the target: try again later.
        var retryable = false
    }

    /// The current token and bundle id of the push's target, read at send time (so a rotated token is used):
    /// from `activities` when the batch's were read together, else from the store.
    private func resolve(_ item: OutboxItem, activities: [String: ActivityRecord]?) async -> Result<ResolvedTarget, TargetFailure> {
        do {
            switch item.target {
            case .activity(let id):
                let stored = if let activities { activities[id] } else { try await store.activity(id: id) }
                guard let activity = stored else {
                    return .failure(TargetFailure(reason: "activity is no longer registered"))
                }
                if let refusal = Eligibility.refusalToSend(activity) {
                    return .failure(TargetFailure(reason: refusal))
                }
                return .success(ResolvedTarget(token: activity.pushToken, bundleID: activity.bundleID))
            case .pushToStartToken(let id):
                guard let record = try await store.pushToStartToken(id: id) else {
                    return .failure(TargetFailure(reason: "push-to-start token is no longer stored"))
                }
                if case .invalid(let reason, _) = record.tokenState {
                    return .failure(TargetFailure(reason: "push-to-start token invalid (\(reason))"))
                }
                return .success(ResolvedTarget(token: record.token, bundleID: record.bundleID))
            case .channel:
                return .failure(TargetFailure(reason: "a channel push is a broadcast, not a device push"))
            }
        } catch {
            return .failure(TargetFailure(reason: "store error while resolving the target: \(error)", retryable: true))
        }
    }
}
