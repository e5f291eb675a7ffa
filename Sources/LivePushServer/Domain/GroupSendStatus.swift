import Foundation
import LiveActivity
import PushStore

/// A group send as the domain reports it: its id, how far it has come, and the broadcasts sent to the
/// group's channels. The API shows it as `GroupSendView`. (The store's `GroupSendProgress` holds the raw
/// counts; this adds the state and the pending count derived from them.)
struct GroupSendStatus: Sendable, Hashable {
    enum State: String, Sendable, Hashable {
        /// No member handed out yet.
        case accepted
        /// Members still being handed out in pages.
        case expanding
        /// All handed out, outcomes pending.
        case sending
        case finished
    }

    /// Members by what became of their push.
    struct Counts: Sendable, Hashable {
        var targeted: Int
        var sent: Int
        var failed: Int
        var downgraded: Int
        var coalesced: Int
        var skipped: Int
        var retrying: Int
        /// Handed out but not yet sent, coalesced, skipped or failed (retrying included).
        var pending: Int
    }

    var sendID: UUID
    var groupID: String
    var kind: LiveActivityEvent
    var state: State
    var acceptedAt: Date
    var finishedAt: Date?
    var counts: Counts
    /// The broadcasts to the channels linked to the group, sent besides the members.
    var broadcastPushIDs: [UUID]

    init(_ send: GroupSend, broadcastPushIDs: [UUID]) {
        let progress = send.progress
        let state: State =
            if send.finishedAt != nil { .finished } else if send.expanded { .sending } else if progress.targeted == 0 { .accepted } else {
                .expanding
            }
        let done = progress.sent + progress.failed + progress.coalesced + progress.skipped
        sendID = send.sendID
        groupID = send.groupID
        kind = send.kind
        self.state = state
        acceptedAt = send.acceptedAt
        finishedAt = send.finishedAt
        counts = Counts(
            targeted: progress.targeted, sent: progress.sent, failed: progress.failed, downgraded: progress.downgraded,
            coalesced: progress.coalesced, skipped: progress.skipped, retrying: progress.retrying,
            pending: max(0, progress.targeted - done))
        self.broadcastPushIDs = broadcastPushIDs
    }
}
