import APNsCore
import Foundation

/// A broadcast that passed the request checks (`BroadcastRequestChecks`), for the channel's subscribers.
struct ReceivedBroadcast: Sendable {
    var channelID: String
    var bundleID: String
    var environment: APNsEnvironment
    var priority: APNsPriority
    /// `apns-expiration` in Unix seconds; 0: not stored.
    var expiration: Int64
    var requestID: String
    var headers: [HeaderField]
    var payload: Data
    var receivedAt: Date
}
