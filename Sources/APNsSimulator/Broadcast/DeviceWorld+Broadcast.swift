import APNsCore
import Foundation
import LiveActivity

/// Broadcasts to channels and subscriptions (docs/apns-protocol.md §10.2 and §10.4).
extension DeviceWorld {
    /// The channel's verdict on a broadcast, and, when accepted, every subscriber applying it. The
    /// payload is read once; each subscriber applies it with the rules of a push to its update token
    /// (timestamp order, content-state decoding, end, stale and dismissal dates). A policy-1 channel
    /// keeps it for later subscribers until its expiration, at most 8 hours.
    func broadcast(_ push: ReceivedBroadcast) -> PushVerdict {
        guard var channel = channels[push.channelID], channel.bundleID == push.bundleID,
            channel.environment == push.environment
        else { return .rejected(.channelNotRegistered, invalidSince: nil) }
        if channel.storagePolicy == .noStorage, push.expiration != 0 {
            return .rejected(.badExpirationDate, invalidSince: nil)
        }
        let started = ContinuousClock.now
        let now = push.receivedAt
        let content = ActivityPushContent.read(push.payload)
        let template = PushRecord(
            apnsID: push.requestID, receivedAt: now, token: "", priority: push.priority.rawValue, headers: push.headers,
            payload: ActivityPushContent.jsonForRecord(push.payload), status: 200, reason: nil,
            outcome: DeviceOutcome(.applied), deviceID: nil, activityID: nil, channelID: push.channelID
        )
        var cache = ContentStateCheckCache()
        var outcomes: [DeviceOutcome.Kind: Int] = [:]
        var remaining: [String] = []
        remaining.reserveCapacity(channel.subscribers.count)
        for activityID in channel.subscribers {
            settle(activityID: activityID, at: now)
            let outcome = applyUpdate(content, record: template, activityID: activityID, at: now, cache: &cache)
            outcomes[outcome.kind, default: 0] += 1
            // A dismissed activity is gone from the device: it leaves the channel.
            if activities[activityID]?.lifecycle(at: now) != .dismissed { remaining.append(activityID) }
        }
        let subscriberCount = channel.subscribers.count
        channel.subscribers = remaining
        if channel.storagePolicy == .mostRecentMessage {
            let cap = now.addingTimeInterval(APNsMessageStoragePolicy.maximumStorageSeconds)
            let expiry = Date(timeIntervalSince1970: TimeInterval(push.expiration))
            channel.storedMessage = StoredBroadcast(content: content, record: template, keptUntil: min(expiry, cap))
        }
        let elapsed = ContinuousClock.now - started
        let summary = BroadcastSummary(
            requestID: push.requestID, receivedAt: now, subscribers: subscriberCount,
            outcomes: Dictionary(uniqueKeysWithValues: outcomes.map { ($0.key.rawValue, $0.value) }),
            applySeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
        channel.lastBroadcast = summary
        channel.broadcastCount += 1
        channels[push.channelID] = channel
        publish(
            .broadcastApplied,
            data: .object([
                "channelId": .string(push.channelID), "bundleId": .string(push.bundleID),
                "summary": SimulatorJSON.tree(summary),
            ]), at: now)
        logger.debug(
            "broadcast applied",
            metadata: [
                "channel": "\(push.channelID)", "subscribers": "\(subscriberCount)", "seconds": "\(summary.applySeconds)",
            ])
        return .accepted
    }

    /// Subscribes an activity to a channel of its app and environment; a stored message (policy 1) is
    /// delivered to it at once. Returns false when the channel does not exist for the activity's app.
    @discardableResult
    func subscribe(activityID: String, channelID: String, at now: Date) -> Bool {
        guard let activity = activities[activityID], let environment = devices[activity.deviceID]?.environment,
            let (bundleID, channelEnvironment, stored) = channels[channelID].map({ ($0.bundleID, $0.environment, $0.deliverableMessage(at: now)) }),
            bundleID == activity.bundleID, channelEnvironment == environment
        else { return false }
        // In place, with no copy of the channel alive: a copy would make every subscription copy the
        // whole subscriber list.
        channels[channelID]?.subscribers.append(activityID)
        activities[activityID]?.channelID = channelID
        let count = channels[channelID]?.subscribers.count ?? 0
        publish(
            .channelSubscribed,
            data: .object([
                "channelId": .string(channelID), "activityId": .string(activityID), "subscriberCount": .number(Double(count)),
            ]), at: now)
        if let stored {
            var cache = ContentStateCheckCache()
            _ = applyUpdate(stored.content, record: stored.record, activityID: activityID, at: now, cache: &cache)
        }
        return true
    }

    /// True when `channelID` is a channel of this app and environment.
    func hasChannel(_ channelID: String, bundleID: String, environment: APNsEnvironment) -> Bool {
        guard let channel = channels[channelID] else { return false }
        return channel.bundleID == bundleID && channel.environment == environment
    }
}
