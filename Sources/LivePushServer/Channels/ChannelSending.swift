import APNsCore
import Foundation

/// One broadcast attempt: an update or end for every activity subscribed to an APNs channel.
package struct BroadcastAttempt: Sendable, Hashable {
    package var bundleID: String
    package var apnsChannelID: String
    /// The complete JSON body (at most 5120 bytes).
    package var payload: Data
    package var priority: APNsPriority
    /// `apns-expiration`; nil sends 0 (required for channels that store no message).
    package var expiration: Date?
    /// Sent as `apns-request-id` (the push id), so a retry is recognisable.
    package var requestID: UUID
}

/// What became of one broadcast attempt or channel operation.
package enum ChannelAnswer: Sendable, Hashable {
    /// APNs took it (`apns-unique-id` for broadcasts; the channel id for a create).
    case accepted(id: String?)
    /// APNs answered with an error status and reason.
    case refused(status: Int, reason: String)
    /// No answer (connection, timeout): it may or may not have been processed.
    case failed(String)
    /// The client shut down under it.
    case interrupted
    /// This sender has no broadcast support.
    case unsupported
}

/// Broadcast channels through the sender of the server: the APNs client (channel management on its
/// own host and port, broadcasts on the push host), or a stand-in in tests. A sender without broadcast
/// support answers `unsupported`.
package protocol ChannelSending: Sendable {
    /// Creates a channel; `accepted(id:)` carries APNs' channel id.
    func createChannel(bundleID: String, storagePolicy: Int) async -> ChannelAnswer
    func deleteChannel(bundleID: String, apnsChannelID: String) async -> ChannelAnswer
    /// Sends one broadcast once (one outbox attempt; back-off is the outbox's).
    func broadcast(_ attempt: BroadcastAttempt) async -> ChannelAnswer
}

extension ChannelSending {
    package func createChannel(bundleID: String, storagePolicy: Int) async -> ChannelAnswer { .unsupported }
    package func deleteChannel(bundleID: String, apnsChannelID: String) async -> ChannelAnswer { .unsupported }
    package func broadcast(_ attempt: BroadcastAttempt) async -> ChannelAnswer { .unsupported }
}
