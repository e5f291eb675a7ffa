import APNsCore
import Foundation
import LiveActivity

/// A send to a whole group, stored as one record when it is accepted: the payload template and the
/// request's options. Workers expand it into pages of the group's members when they send it, so
/// accepting it costs the same for 10 activities as for 100,000.
package struct GroupSend: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case sendID = "sendId"
        case groupID = "groupId"
        case kind, template, dismissalDate, acceptedAt, createdBy, progress, expanded, finishedAt
    }

    package var sendID: UUID
    package var groupID: String
    package var kind: LiveActivityEvent
    /// The payload and options of every push; an activity that holds the template's timestamp or a newer
    /// one gets a later one.
    package var template: SendTemplate
    /// End only: the dismissal date each ended activity records.
    package var dismissalDate: Date?
    package var acceptedAt: Date
    /// The principal that asked for it.
    package var createdBy: String
    package var progress: GroupSendProgress
    /// Every member has been handed out in a page.
    package var expanded: Bool
    /// When the last push found its outcome.
    package var finishedAt: Date?

    package init(
        sendID: UUID = UUID(), groupID: String, kind: LiveActivityEvent, template: SendTemplate, dismissalDate: Date? = nil, acceptedAt: Date,
        createdBy: String, progress: GroupSendProgress = GroupSendProgress(),
        expanded: Bool = false, finishedAt: Date? = nil
    ) {
        self.sendID = sendID
        self.groupID = groupID
        self.kind = kind
        self.template = template
        self.dismissalDate = dismissalDate
        self.acceptedAt = acceptedAt
        self.createdBy = createdBy
        self.progress = progress
        self.expanded = expanded
        self.finishedAt = finishedAt
    }

    /// True for the sends a newer one replaces while they wait: routine updates.
    package var isCoalescable: Bool { kind == .update && template.importance == .routine }
}

/// How far a group send has come: counts of its members by what became of their push.
package struct GroupSendProgress: Sendable, Hashable, Codable {
    /// Members handed out in pages so far (all of them once the send is expanded).
    package var targeted = 0
    /// Accepted by APNs.
    package var sent = 0
    /// Refused by APNs, undeliverable, or expired.
    package var failed = 0
    /// Sent at priority 5 because the activity's priority-10 budget was used.
    package var downgraded = 0
    /// Not sent: a newer push to the activity (or a newer routine group update) replaced it.
    package var coalesced = 0
    /// Not sent: the member was ended, dismissed, or without a valid token when its page was sent.
    package var skipped = 0
    /// Waiting in the outbox for another attempt (APNs or the connection failed).
    package var retrying = 0
}

/// A slice of a group send's members (ids `firstId...lastId` in the group), claimed by one worker.
package struct GroupSendPage: Sendable, Hashable {
    package var send: GroupSend
    package var firstID: String
    package var lastID: String
    /// The members in the slice, read when the page was claimed, ordered by id (without their groups and
    /// last content state, which sending does not need).
    package var activities: [ActivityRecord]
    /// For a routine update: a newer routine update to the same group, which replaces this one.
    package var supersededBy: UUID?
}

/// What a worker did with a page, recorded in one transaction.
package struct GroupSendPageOutcome: Sendable {
    /// The history entry of every push that reached an outcome of its own (refused, coalesced, expired, or
    /// accepted other than as planned: downgraded, sent again, another `apns-id`).
    package var records: [DeliveryRecord] = []
    /// The pushes accepted as planned, recorded together in one page record (see ``AcceptedPagePushes``).
    package var accepted = AcceptedPagePushes()
    /// Pushes to try again, as outbox items (with the send's id).
    package var retries: [OutboxItem] = []
    /// The activities that took the send's content state, with the timestamp each was sent.
    package var contentStates: [(activityID: String, timestamp: Date)] = []
    /// The page's content state (nil: an end without one).
    package var contentState: JSONValue?
    /// End: the activities to mark ended.
    package var ended: [String] = []
    /// Members not sent for their state (ended, dismissed, no valid token).
    package var skipped = 0
    package var downgraded = 0
    /// Tokens APNs refused for good, marked invalid wherever they are stored in the same transaction.
    package var invalidations: [TokenInvalidation] = []

    package init() {}
}

/// The answer of ``GroupSendStore/completePage(_:owner:outcome:at:)``.
package struct GroupSendPageReport: Sendable, Hashable {
    /// False when the worker no longer held the page (its lease ended and another worker took it): nothing
    /// was written.
    package var held: Bool
    /// End: the activities this page took out of `active`.
    package var endedNow: [String]
    /// The records whose token the page's refusals marked invalid.
    package var invalidated = InvalidatedTokens()
}
