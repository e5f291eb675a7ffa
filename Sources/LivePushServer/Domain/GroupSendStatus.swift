import Foundation
import LiveActivity
import PushStore

/// A group send as the domain reports it: its id, how far it has come, and the broadcasts sent to the
/// group's channels. The API shows it as the contract's `GroupSend`. (The store's `GroupSendProgress` holds the raw
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

    var sendID: UUID
    var groupID: String
    var kind: LiveActivityEvent
    var state: State
    var acceptedAt: Date
    var finishedAt: Date?
    /// Members by what became of their push, as the store counts them.
    var progress: GroupSendProgress
    /// The broadcasts to the channels linked to the group, sent besides the members.
    var broadcastPushIDs: [UUID]

    init(_ send: GroupSend, broadcastPushIDs: [UUID]) {
        let progress = send.progress
        let state: State =
            if send.finishedAt != nil { .finished } else if send.expanded { .sending } else if progress.targeted == 0 { .accepted } else {
                .expanding
            }
        sendID = send.sendID
        groupID = send.groupID
        kind = send.kind
        self.state = state
        acceptedAt = send.acceptedAt
        finishedAt = send.finishedAt
        self.progress = progress
        self.broadcastPushIDs = broadcastPushIDs
    }

    /// Handed out but not yet sent, coalesced, skipped or failed (retrying included).
    var pending: Int { max(0, progress.targeted - (progress.sent + progress.failed + progress.coalesced + progress.skipped)) }
}
