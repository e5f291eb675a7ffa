import Foundation

// A group send as the API shows it (the 202 answer of a group send and `GET /v1/sends/{sendId}`), made
// from the domain's `GroupSendStatus`: ids as lowercase UUIDs, state and kind as their names.
extension GroupSendView {
    init(_ status: GroupSendStatus) {
        let progress = status.progress
        self.init(
            sendID: status.sendID.lowercased, groupID: status.groupID, kind: status.kind.rawValue, state: status.state.rawValue,
            acceptedAt: status.acceptedAt, finishedAt: status.finishedAt,
            counts: Counts(
                targeted: progress.targeted, sent: progress.sent, failed: progress.failed, downgraded: progress.downgraded,
                coalesced: progress.coalesced, skipped: progress.skipped, retrying: progress.retrying, pending: status.pending),
            broadcastPushIDs: status.broadcastPushIDs.map(\.lowercased))
    }
}
