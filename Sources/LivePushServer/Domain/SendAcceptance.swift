import Foundation

/// What a send request put in the outbox and what the policy did with it: the domain's answer of a
/// send by activity, by user (push-to-start) or by channel. The API shows it as the contract's `Accepted`.
struct SendAcceptance: Sendable, Hashable {
    /// An earlier pending routine update that a push of this request replaced.
    struct Coalesced: Sendable, Hashable {
        /// The push that will not be sent.
        var replaced: UUID
        /// The push that carries the newest content-state instead.
        var by: UUID
    }

    /// A push sent at priority 5 although priority 10 was asked for.
    struct Downgraded: Sendable, Hashable {
        var pushID: UUID
        var reason: String
    }

    /// A target of the request that got no push.
    struct Skipped: Sendable, Hashable {
        /// What was skipped: an activity, or a push-to-start token.
        enum Target: Sendable, Hashable {
            case activity(String)
            case pushToStartToken(UUID)
        }

        var target: Target
        var reason: String
    }

    /// In the order the outbox took them; each is also the push's `apns-id`.
    var pushIDs: [UUID] = []
    var coalesced: [Coalesced] = []
    var downgraded: [Downgraded] = []
    var skipped: [Skipped] = []
}
