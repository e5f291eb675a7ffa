import APNsCore
import Foundation
import Logging
import PushStore

/// The broadcast channels of the server: created and deleted with APNs (synchronously: APNs gives the
/// channel id), kept in the store, counted against APNs' limit of channels per app.
struct ChannelService: Sendable {
    let store: any PushStore
    let sender: any ChannelSending
    /// How many deliveries a channel's view returns.
    let historyLimit: Int
    let clock: any WallClock
    let logger: Logger

    /// APNs keeps at most this many channels per app and environment (CannotCreateChannelConfig past it).
    static let limit = 10_000
    /// From this many on, every create logs a warning with what is left.
    static let warnAt = 9_000

    /// What a create asks for.
    struct Creation: Sendable {
        var name: String
        var bundleID: String
        var storagePolicy: Int
        var groupID: String?
    }

    /// Creates the channel with APNs, then stores it. The limit is checked first, so it is reported
    /// before APNs refuses.
    func create(_ creation: Creation) async throws(DomainError) -> ChannelRecord {
        let used = try await stored { () async throws(PushStoreError) in try await store.channelCount(bundleID: creation.bundleID) }
        guard used < Self.limit else {
            throw .conflict(
                "bundleId", "channelLimit",
                "\(creation.bundleID) has \(used) channels, APNs' limit per app and environment; delete unused ones (DELETE /v1/channels/{channelId})"
            )
        }
        if used + 1 >= Self.warnAt {
            logger.warning(
                "broadcast channels near APNs' limit",
                metadata: ["bundleId": "\(creation.bundleID)", "used": "\(used + 1)", "limit": "\(Self.limit)"])
        }
        if try await stored({ () async throws(PushStoreError) in try await store.channel(named: creation.name, bundleID: creation.bundleID) }) != nil
        {
            throw .conflict(
                "name", "exists", "a channel named '\(creation.name)' exists for \(creation.bundleID); names are unique among live channels")
        }
        let apnsID: String
        switch await sender.createChannel(bundleID: creation.bundleID, storagePolicy: creation.storagePolicy) {
        case .accepted(let id?):
            apnsID = id
        case .accepted(nil):
            throw .upstream(nil, "apns", "APNs created the channel but sent no apns-channel-id")
        case let other:
            throw Self.refusal(other, doing: "create the channel")
        }
        let record = ChannelRecord(
            name: creation.name, bundleID: creation.bundleID, apnsChannelID: apnsID, storagePolicy: creation.storagePolicy,
            groupID: creation.groupID, createdAt: clock.now())
        do {
            let saved = try await store.createChannel(record)
            logger.info(
                "channel created",
                metadata: ["channelId": "\(saved.id.lowercased)", "bundleId": "\(saved.bundleID)", "storagePolicy": "\(saved.storagePolicy)"])
            return saved
        } catch {
            // Not stored: give the APNs channel back rather than leak one of the app's 10,000.
            _ = await sender.deleteChannel(bundleID: record.bundleID, apnsChannelID: apnsID)
            throw DomainError(error)
        }
    }

    /// A live or deleted channel, with its newest deliveries.
    func detail(id: UUID) async throws(DomainError) -> (channel: ChannelRecord, deliveries: [DeliveryRecord]) {
        let channel = try await existing(id)
        let limit = historyLimit
        let deliveries = try await stored { () async throws(PushStoreError) in try await store.deliveries(channelID: id, limit: limit) }
        return (channel, deliveries)
    }

    /// The live channels (of one bundle when given) and how many each bundle may still create.
    func list(bundleID: String?) async throws(DomainError) -> [ChannelRecord] {
        try await stored { () async throws(PushStoreError) in try await store.channels(bundleID: bundleID) }
    }

    /// Deletes the channel with APNs (one it no longer knows counts as deleted) and marks it deleted.
    func delete(id: UUID) async throws(DomainError) -> ChannelRecord {
        let channel = try await existing(id)
        if channel.isDeleted { return channel }
        switch await sender.deleteChannel(bundleID: channel.bundleID, apnsChannelID: channel.apnsChannelID) {
        case .accepted:
            break
        case .refused(_, let reason) where reason == APNsReason.channelNotRegistered.rawValue:
            logger.info("channel already gone at APNs", metadata: ["channelId": "\(id.lowercased)"])
        case let other:
            throw Self.refusal(other, doing: "delete the channel")
        }
        let deleted = try await stored { () async throws(PushStoreError) in try await store.markChannelDeleted(id: id, at: clock.now()) }
        logger.info("channel deleted", metadata: ["channelId": "\(id.lowercased)"])
        return deleted
    }

    func existing(_ id: UUID) async throws(DomainError) -> ChannelRecord {
        guard let channel = try await stored({ () async throws(PushStoreError) in try await store.channel(id: id) }) else {
            throw .notFound("channelId", "no channel '\(id.lowercased)' is stored; create one with POST /v1/channels")
        }
        return channel
    }

    /// The domain reading of APNs' answer to a channel operation that did not succeed.
    static func refusal(_ answer: ChannelAnswer, doing what: String) -> DomainError {
        switch answer {
        case .refused(_, let reason) where reason == APNsReason.cannotCreateChannelConfig.rawValue:
            return .conflict("bundleId", "channelLimit", "APNs refused to \(what): the app has reached its channel limit (CannotCreateChannelConfig)")
        case .refused(_, let reason) where reason == APNsReason.featureNotEnabled.rawValue:
            return .conflict(
                "bundleId", "featureNotEnabled",
                "APNs refused to \(what): broadcast is not enabled for this app (turn on Broadcast Capability for the App ID in the developer portal)"
            )
        case .refused(let status, let reason):
            return .upstream(nil, "apns", "APNs refused to \(what): \(status) \(reason)")
        case .failed(let error):
            return .upstream(nil, "apns", "APNs could not be reached to \(what): \(error); retry later")
        case .interrupted:
            return .upstream(nil, "apns", "the server is shutting down; retry later")
        case .unsupported:
            return .upstream(nil, "unsupported", "this server's APNs sender does not manage broadcast channels")
        case .accepted:
            return .upstream(nil, "apns", "unexpected answer from APNs")
        }
    }
}

extension DomainError {
    static func upstream(_ subject: String?, _ rule: String, _ message: String) -> DomainError {
        DomainError(kind: .upstream, subject: subject, rule: rule, message: message)
    }
}
