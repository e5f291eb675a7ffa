import APNsCore
import Foundation

/// One broadcast channel of the simulated APNs. Subscribers are kept as activity ids in subscription
/// order (an index by channel, so a broadcast walks only its own subscribers); the stored message is
/// kept once, read once, for the whole channel.
struct SimulatedChannel: Sendable {
    let id: String
    let bundleID: String
    let environment: APNsEnvironment
    let storagePolicy: APNsMessageStoragePolicy
    let createdAt: Date
    var subscribers: [String] = []
    /// Policy 1: the most recent broadcast, for activities that subscribe later.
    var storedMessage: StoredBroadcast?
    var lastBroadcast: BroadcastSummary?
    var broadcastCount = 0

    /// The stored message while it is still deliverable at `now`.
    func deliverableMessage(at now: Date) -> StoredBroadcast? {
        guard let storedMessage, storedMessage.keptUntil > now else { return nil }
        return storedMessage
    }
}

/// A broadcast a policy-1 channel keeps: read once, applied to every later subscriber.
struct StoredBroadcast: Sendable {
    var content: Result<ActivityPushContent, DeviceReadError>
    /// The history entry each subscriber gets (outcome, device and activity filled in per activity).
    var record: PushRecord
    /// The message's expiration, capped at 8 hours after it arrived.
    var keptUntil: Date
}

/// What the last broadcast of a channel did, for the control API, the dashboard and benchmarks.
public struct BroadcastSummary: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case requestID = "requestId"
        case receivedAt, subscribers, outcomes, applySeconds
    }

    public var requestID: String
    public var receivedAt: Date
    public var subscribers: Int
    /// Outcome kind → number of subscribers (`applied`, `ignoredOlderTimestamp`, `decodeFailure`, …).
    public var outcomes: [String: Int]
    /// How long applying it to every subscriber took.
    public var applySeconds: Double
}

/// A channel as the control API shows it.
public struct ChannelSnapshot: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case channelID = "channelId"
        case bundleID = "bundleId"
        case environment, messageStoragePolicy, createdAt, subscriberCount, broadcastCount, storedMessageUntil, lastBroadcast, subscribers
    }

    public var channelID: String
    public var bundleID: String
    public var environment: APNsEnvironment
    public var messageStoragePolicy: Int
    public var createdAt: Date
    public var subscriberCount: Int
    public var broadcastCount: Int
    /// Policy 1: until when the stored message is delivered to new subscribers (nil: none stored).
    public var storedMessageUntil: Date?
    public var lastBroadcast: BroadcastSummary?
    /// The first subscribers' activity ids, when asked for (`GET /v1/channels/{id}`).
    public var subscribers: [String]?
}

/// `POST /v1/channels`: a channel made through the control API (as `livepush channels create` would).
public struct ChannelRegistration: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case bundleID = "bundleId"
        case environment, messageStoragePolicy
    }

    public var bundleID: String
    /// `sandbox` (also `development`) or `production`.
    public var environment: String
    /// 0 (no storage) or 1 (most recent message).
    public var messageStoragePolicy: Int
}
