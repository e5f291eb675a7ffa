import APNsCore
import Foundation

/// Channel management as the simulated APNs answers it (docs/apns-protocol.md §10.1), and the control
/// API's view of the channels.
extension DeviceWorld {
    /// Creates a channel; 400 `CannotCreateChannelConfig` past `limit` channels for the app and environment.
    func createChannel(
        bundleID: String, environment: APNsEnvironment, policy: APNsMessageStoragePolicy, limit: Int, idBytes: Int
    ) -> Result<String, ChannelRefusal> {
        let key = AppKey(bundleID: bundleID, environment: environment)
        guard (channelOrder[key]?.count ?? 0) < limit else { return .failure(ChannelRefusal(.cannotCreateChannelConfig)) }
        var id = APNsChannelID.random(byteCount: idBytes).base64
        while channels[id] != nil { id = APNsChannelID.random(byteCount: idBytes).base64 }
        let now = clock.now()
        let channel = SimulatedChannel(id: id, bundleID: bundleID, environment: environment, storagePolicy: policy, createdAt: now)
        channels[id] = channel
        channelOrder[key, default: []].append(id)
        publish(.channelCreated, data: SimulatorJSON.tree(channelSnapshot(channel, at: now, subscriberLimit: 0)), at: now)
        return .success(id)
    }

    /// A channel of this app and environment; 400 `ChannelNotRegistered` for any other id.
    func channelPolicy(id: String, bundleID: String, environment: APNsEnvironment) -> Result<APNsMessageStoragePolicy, ChannelRefusal> {
        guard let channel = channels[id], channel.bundleID == bundleID, channel.environment == environment else {
            return .failure(ChannelRefusal(.channelNotRegistered))
        }
        return .success(channel.storagePolicy)
    }

    /// Deletes a channel: later broadcasts and subscriptions to it fail. Its id never comes back.
    func deleteChannel(id: String, bundleID: String, environment: APNsEnvironment) -> APNsReason? {
        guard let channel = channels[id], channel.bundleID == bundleID, channel.environment == environment else {
            return .channelNotRegistered
        }
        channels[id] = nil
        for index in channel.subscribers.indices {
            activities[channel.subscribers[index]]?.channelID = nil
        }
        channelOrder[AppKey(bundleID: bundleID, environment: environment)]?.removeAll { $0 == id }
        let now = clock.now()
        publish(
            .channelDeleted,
            data: .object([
                "channelId": .string(id), "bundleId": .string(bundleID), "environment": .string(environment.rawValue),
            ]), at: now)
        return nil
    }

    /// The app's channel ids in this environment, oldest first.
    func channelIDs(bundleID: String, environment: APNsEnvironment) -> [String] {
        channelOrder[AppKey(bundleID: bundleID, environment: environment)] ?? []
    }

    // MARK: - Control API

    /// Creates a channel from the control API (no limit check: that is the APNs answer's business).
    public func createChannel(_ request: ChannelRegistration) throws(DeviceWorldError) -> ChannelSnapshot {
        let bundleID = try Self.validBundleID(request.bundleID)
        let environment = try Self.environment(request.environment)
        guard let policy = APNsMessageStoragePolicy(rawValue: request.messageStoragePolicy) else {
            throw DeviceWorldError(
                .invalid, field: "messageStoragePolicy",
                "\(request.messageStoragePolicy) is not a storage policy; accepted: 0 (no storage), 1 (most recent message)")
        }
        switch createChannel(bundleID: bundleID, environment: environment, policy: policy, limit: .max, idBytes: 16) {
        case .success(let id):
            return try channel(id: id, subscriberLimit: 0)
        case .failure(let refusal):
            throw DeviceWorldError(.conflict, field: "bundleId", refusal.reason.broadcastRemedy)
        }
    }

    /// Every channel, oldest first, with subscriber counts.
    public func allChannels() -> [ChannelSnapshot] {
        let now = clock.now()
        return channelOrder.values.flatMap { $0 }
            .compactMap { channels[$0] }
            .sorted { $0.createdAt == $1.createdAt ? $0.id < $1.id : $0.createdAt < $1.createdAt }
            .map { channelSnapshot($0, at: now, subscriberLimit: 0) }
    }

    /// One channel with its first `subscriberLimit` subscribers' activity ids.
    public func channel(id: String, subscriberLimit: Int = 1000) throws(DeviceWorldError) -> ChannelSnapshot {
        guard let channel = channels[id] else { throw DeviceWorldError(.notFound, field: "channelId", "no channel '\(id)'") }
        return channelSnapshot(channel, at: clock.now(), subscriberLimit: subscriberLimit)
    }

    func channelSnapshot(_ channel: SimulatedChannel, at now: Date, subscriberLimit: Int) -> ChannelSnapshot {
        ChannelSnapshot(
            channelID: channel.id, bundleID: channel.bundleID, environment: channel.environment,
            messageStoragePolicy: channel.storagePolicy.rawValue, createdAt: channel.createdAt,
            subscriberCount: channel.subscribers.count, broadcastCount: channel.broadcastCount,
            storedMessageUntil: channel.deliverableMessage(at: now)?.keptUntil, lastBroadcast: channel.lastBroadcast,
            subscribers: subscriberLimit > 0 ? Array(channel.subscribers.prefix(subscriberLimit)) : nil
        )
    }
}

/// The channel side's answer to a management request.
enum ChannelManagementAnswer: Sendable {
    case created(String)
    case configuration(APNsMessageStoragePolicy)
    case deleted
    case list([String])
    case rejected(APNsReason)
}

extension DeviceWorld {
    /// One management request that passed the request checks, answered by the channels.
    func manage(
        bundleID: String, environment: APNsEnvironment, _ operation: BroadcastRequestChecks.ManagementOperation,
        configuration: BroadcastConfiguration
    ) -> ChannelManagementAnswer {
        switch operation {
        case .create(let policy):
            switch createChannel(
                bundleID: bundleID, environment: environment, policy: policy,
                limit: configuration.maximumChannelsPerApp, idBytes: configuration.channelIDByteCount)
            {
            case .success(let id): return .created(id)
            case .failure(let refusal): return .rejected(refusal.reason)
            }
        case .read(let id):
            switch channelPolicy(id: id, bundleID: bundleID, environment: environment) {
            case .success(let policy): return .configuration(policy)
            case .failure(let refusal): return .rejected(refusal.reason)
            }
        case .delete(let id):
            if let reason = deleteChannel(id: id, bundleID: bundleID, environment: environment) { return .rejected(reason) }
            return .deleted
        case .list:
            return .list(channelIDs(bundleID: bundleID, environment: environment))
        }
    }
}

/// Why the channels refused a management request: the reason APNs answers with.
struct ChannelRefusal: Error, Sendable, Hashable {
    var reason: APNsReason

    init(_ reason: APNsReason) { self.reason = reason }
}
