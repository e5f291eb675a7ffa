import Foundation
import LiveActivity
import PushStore

/// What one member of a group send gets when its page is sent: decided from the member as stored at that
/// moment, the send, and the clock. Pure: the page worker acts on it.
enum GroupSendPlan: Equatable {
    /// Sent with this timestamp (the send's, or one second after the member's newest).
    case send(timestamp: Date)
    /// Not sent, recorded `coalesced`: a push accepted after the send replaced it (`by`: that push's id
    /// when known).
    case coalesced(reason: String, by: UUID?)
    /// Not sent, recorded `expired`.
    case expired
    /// Not sent, not recorded: the member was ended, dismissed or without a valid token (counted).
    case skipped

    /// The plan for `activity` in `page` at `now`.
    static func plan(_ activity: ActivityRecord, in page: GroupSendPage, now: Date) -> GroupSendPlan {
        let send = page.send
        // Ended (by an earlier push or the app), dismissed, or waiting for a new token: the group's audience
        // is its active members with a valid token, as when a single send is accepted.
        if Eligibility.refusalToAccept(activity) != nil { return .skipped }
        if let expiration = send.expiration, expiration <= now { return .expired }
        if send.kind == .update {
            if let newer = page.supersededBy {
                return .coalesced(
                    reason: "a newer routine update to the group replaced it",
                    by: pushID(sendID: newer, activityID: activity.activityID))
            }
            if let last = activity.lastAcceptedAt, last > send.acceptedAt {
                return .coalesced(reason: "a newer push to the activity was accepted after this group send", by: nil)
            }
        }
        // The device keeps only newer timestamps: after what the activity already took, and an end after
        // anything accepted since the send.
        var timestamp = send.timestamp
        if let last = activity.lastTimestamp, last >= timestamp { timestamp = last.addingTimeInterval(1) }
        return .send(timestamp: timestamp)
    }

    /// The push id (and `apns-id`) of a group send's push to one activity (see `GroupSend.pushID`).
    static func pushID(sendID: UUID, activityID: String) -> UUID {
        GroupSend.pushID(sendID: sendID, activityID: activityID)
    }
}
