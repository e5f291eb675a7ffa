import APNsCore

/// APNs accepted a broadcast (200).
public struct APNsBroadcastReceipt: Sendable, Hashable {
    public var channelID: APNsChannelID
    /// `apns-request-id`: the one sent, or the one APNs generated.
    public var requestID: String?
    /// `apns-unique-id`: quote it when asking Apple about this broadcast (Push Notifications Console).
    public var uniqueID: String?
    /// Sends it took, the first included.
    public var attempts: Int
}

/// A channel APNs created (documented 201; a 200 has been reported and is accepted too).
public struct APNsCreatedChannel: Sendable, Hashable {
    public var channelID: APNsChannelID
    public var storagePolicy: APNsMessageStoragePolicy
    public var requestID: String?
    /// The status APNs answered with: 201 as documented, or 200.
    public var status: Int
}

/// A channel's settings as the read operation returns them.
public struct APNsChannelConfiguration: Sendable, Hashable {
    public var channelID: APNsChannelID
    public var storagePolicy: APNsMessageStoragePolicy
    /// Always `LiveActivity` today.
    public var pushType: String
    public var requestID: String?
}
