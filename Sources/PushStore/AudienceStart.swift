import APNsCore
import Foundation

/// A start for an audience: one push-to-start per device of the users listed (or of every user with a
/// valid push-to-start token for the attributes type), stored as one record when it is accepted and
/// sent in pages of users by the workers, like a group send.
package struct AudienceStart: Sendable, Hashable {
    package var sendID: UUID
    package var attributesType: String
    /// The users listed, in the order given; nil: every user with a valid push-to-start token for the
    /// type. A start read back from the store carries no list (``userCount`` says how many).
    package var userIDs: [String]?
    /// How many users were listed (0 for everyone).
    package var userCount: Int
    /// Only push-to-start tokens of this app are targets (the app of the channel the activities join).
    package var bundleID: String?
    /// The server's id of the channel the started activities join (`input-push-channel`), for display.
    package var channelID: UUID?
    /// The complete start payload sent to every device, and its options.
    package var template: SendTemplate
    package var acceptedAt: Date
    /// The principal that asked for it.
    package var createdBy: String
    package var progress = AudienceStartProgress()
    /// Every user has been handed out in a page.
    package var expanded = false
    /// When the last push found its outcome.
    package var finishedAt: Date?

    package init(
        sendID: UUID = UUID(), attributesType: String, userIDs: [String]?, bundleID: String? = nil, channelID: UUID? = nil,
        template: SendTemplate, acceptedAt: Date, createdBy: String
    ) {
        self.sendID = sendID
        self.attributesType = attributesType
        self.userIDs = userIDs
        self.userCount = userIDs?.count ?? 0
        self.bundleID = bundleID
        self.channelID = channelID
        self.template = template
        self.acceptedAt = acceptedAt
        self.createdBy = createdBy
    }

    /// True when the audience is every user with a valid token for the type.
    package var isEveryone: Bool { userIDs == nil && userCount == 0 }
}

/// How far an audience start has come. A target is a device (a valid push-to-start token of a user in
/// the audience), or a listed user without any such token.
package struct AudienceStartProgress: Sendable, Hashable {
    /// Targets handed out in pages and recorded so far.
    package var targeted = 0
    /// Accepted by APNs.
    package var sent = 0
    /// Refused by APNs, undeliverable or expired.
    package var failed = 0
    /// Not sent: the user had no valid push-to-start token for the type.
    package var noToken = 0
    /// Not sent: the device's push-to-start budget was used.
    package var budget = 0
    /// Waiting in the outbox for another attempt.
    package var retrying = 0

    /// Not sent, for either reason.
    package var skipped: Int { noToken + budget }
}

/// A slice of an audience start's users (`firstID...lastID`), claimed by one worker.
package struct AudienceStartPage: Sendable, Hashable {
    package var send: AudienceStart
    package var firstID: String
    package var lastID: String
    /// The users in the slice, ordered by id.
    package var users: [String]
    /// Their push-to-start tokens for the type (of the send's app, when it names one), valid or not.
    package var tokens: [PushToStartTokenRecord]
}

/// What a worker did with an audience page, recorded in one transaction.
package struct AudienceStartPageOutcome: Sendable {
    /// The history entry of every start push that reached its outcome (target: the push-to-start token).
    package var records: [DeliveryRecord] = []
    /// Pushes to try again, as outbox items (with the send's id).
    package var retries: [OutboxItem] = []
    /// Targets of the page: devices, and users without a token.
    package var targeted = 0
    package var noToken = 0
    package var budget = 0
    /// Tokens APNs refused for good, marked invalid in the same transaction.
    package var invalidations: [TokenInvalidation] = []

    package init() {}
}

/// The answer of ``AudienceStartStore/completeAudiencePage(_:owner:outcome:at:journal:)``.
package struct AudienceStartPageReport: Sendable, Hashable {
    /// False when the worker no longer held the page: nothing was written.
    package var held: Bool
    /// The records whose token the page's refusals marked invalid.
    package var invalidated = InvalidatedTokens()
}
