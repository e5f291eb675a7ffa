import Foundation
import PushStore

/// The 202 answer of a send request: the push ids written to the outbox and what the policy did.
struct AcceptedPushes: Encodable, Sendable {
    struct Coalesced: Encodable, Sendable {
        /// The earlier pending routine update that will not be sent.
        var replaced: UUID
        /// The push that carries the newest content-state instead.
        var by: UUID
    }

    struct Downgraded: Encodable, Sendable {
        var pushId: UUID
        var reason: String
    }

    struct Skipped: Encodable, Sendable {
        var activityId: String?
        var pushToStartTokenId: UUID?
        var reason: String
    }

    var pushIds: [UUID] = []
    var coalesced: [Coalesced] = []
    var downgraded: [Downgraded] = []
    var skipped: [Skipped] = []
}
