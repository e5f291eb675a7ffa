import PushStore

extension GroupSendView {
    init(_ send: GroupSend, broadcastPushIDs: [String]) {
        let progress = send.progress
        let state =
            if send.finishedAt != nil { "finished" } else if send.expanded { "sending" } else if progress.targeted == 0 { "accepted" } else {
                "expanding"
            }
        let done = progress.sent + progress.failed + progress.coalesced + progress.skipped
        self.init(
            sendID: send.sendID.lowercased, groupID: send.groupID, kind: send.kind.rawValue, state: state,
            acceptedAt: send.acceptedAt, finishedAt: send.finishedAt,
            counts: Counts(
                targeted: progress.targeted, sent: progress.sent, failed: progress.failed, downgraded: progress.downgraded,
                coalesced: progress.coalesced, skipped: progress.skipped, retrying: progress.retrying,
                pending: max(0, progress.targeted - done)),
            broadcastPushIDs: broadcastPushIDs)
    }
}
