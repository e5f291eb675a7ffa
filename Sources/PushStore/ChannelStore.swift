import Foundation

/// A broadcast channel the server created with APNs: one request updates every activity subscribed to it.
package struct ChannelRecord: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case id, name
        case bundleID = "bundleId"
        case apnsChannelID = "apnsChannelId"
        case storagePolicy
        case groupID = "groupId"
        case createdAt, deletedAt
    }

    /// Ours, for the API's paths.
    package var id: UUID
    /// A name of the backend's choosing (a match, a route), unique among live channels of the bundle.
    package var name: String
    package var bundleID: String
    /// APNs' channel id (base64), which apps subscribe to and broadcasts carry.
    package var apnsChannelID: String
    /// 0: no message stored; 1: the most recent message stored (at most 8 hours).
    package var storagePolicy: Int
    /// A group whose updates and ends also go out through this channel.
    package var groupID: String?
    package var createdAt: Date
    /// When it was deleted (APNs no longer takes broadcasts to it); deleted channels are kept for history.
    package var deletedAt: Date?

    package init(
        id: UUID = UUID(), name: String, bundleID: String, apnsChannelID: String, storagePolicy: Int,
        groupID: String? = nil, createdAt: Date, deletedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.bundleID = bundleID
        self.apnsChannelID = apnsChannelID
        self.storagePolicy = storagePolicy
        self.groupID = groupID
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }

    package var isDeleted: Bool { deletedAt != nil }
}

/// The broadcast channels the server created.
package protocol ChannelStore: Sendable {
    /// Stores a channel APNs created. Throws `conflict` when a live channel of the bundle has its name.
    func createChannel(_ channel: ChannelRecord) async throws(PushStoreError) -> ChannelRecord

    func channel(id: UUID) async throws(PushStoreError) -> ChannelRecord?

    /// The live channel of a bundle with this name, if any.
    func channel(named name: String, bundleID: String) async throws(PushStoreError) -> ChannelRecord?

    /// The live channels, oldest first; of one bundle when `bundleId` is given.
    func channels(bundleID: String?) async throws(PushStoreError) -> [ChannelRecord]

    /// The live channels linked to a group.
    func channels(linkedToGroup groupID: String) async throws(PushStoreError) -> [ChannelRecord]

    /// How many live channels a bundle has (APNs allows 10,000 per app and environment).
    func channelCount(bundleID: String) async throws(PushStoreError) -> Int

    /// Marks a channel deleted (again keeps the first date); throws `notFound` when it is not stored.
    func markChannelDeleted(id: UUID, at: Date) async throws(PushStoreError) -> ChannelRecord
}
