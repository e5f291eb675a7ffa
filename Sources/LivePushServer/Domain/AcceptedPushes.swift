import Foundation
import PushStore

extension UUID {
    /// The lowercase form the API uses (as `apns-id` does).
    var lowercased: String { uuidString.lowercased() }
}

/// The 202 answer of a send request: the push ids written to the outbox and what the policy did.
struct AcceptedPushes: Encodable, Sendable {
    struct Coalesced: Encodable, Sendable {
        /// The earlier pending routine update that will not be sent.
        var replaced: String
        /// The push that carries the newest content-state instead.
        var by: String
    }

    struct Downgraded: Encodable, Sendable {
        var pushId: String
        var reason: String
    }

    struct Skipped: Encodable, Sendable {
        var activityId: String?
        var pushToStartTokenId: String?
        var reason: String
    }

    /// Lowercase UUIDs; each is also the push's `apns-id`.
    var pushIds: [String] = []
    var coalesced: [Coalesced] = []
    var downgraded: [Downgraded] = []
    var skipped: [Skipped] = []
}
