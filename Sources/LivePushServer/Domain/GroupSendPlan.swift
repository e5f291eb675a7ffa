import APNsCore
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
        if let expiration = send.template.expiration, expiration <= now { return .expired }
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
        return .send(timestamp: TimestampIssuer.timestamp(send.template.timestamp, after: activity.lastTimestamp))
    }

    /// The push id (and `apns-id`) of a group send's push to one activity (see `GroupSend.pushID`).
    static func pushID(sendID: UUID, activityID: String) -> UUID {
        GroupSend.pushID(sendID: sendID, activityID: activityID)
    }
}

extension GroupSendPlan {
    /// A page's push to one member, with the timestamp it carries.
    struct Push: Sendable {
        var item: OutboxItem
        var activity: ActivityRecord
        var timestamp: Date
    }

    /// A planned member that gets no push: the send's payload could not be encoded with its timestamp.
    struct Unencodable: Sendable {
        var activity: ActivityRecord
        var pushID: UUID
        var priority: APNsPriority
        var downgrade: String?
    }

    /// One push per planned member: the send's payload with the member's timestamp (encoded once per
    /// distinct timestamp), as the outbox takes a push to an activity (``OutboxItem/push(to:kind:payload:requestedPriority:budget:importance:collapseKey:expiration:acceptedAt:pushID:sendID:)``:
    /// priority 10 within its budget, else 5 with the reason).
    static func pushes(
        _ send: GroupSend, planned: [(activity: ActivityRecord, timestamp: Date)], budgets: [String: BudgetDecision]
    ) -> (pushes: [Push], unencodable: [Unencodable]) {
        var decoded = try? LiveActivityPayload.decode(from: send.template.payload)
        var bodies: [Date: Data] = [send.template.timestamp: send.template.payload]
        var pushes: [Push] = []
        var unencodable: [Unencodable] = []
        pushes.reserveCapacity(planned.count)
        for (activity, timestamp) in planned {
            let pushID = pushID(sendID: send.sendID, activityID: activity.activityID)
            let budget = budgets[activity.activityID]
            var body = bodies[timestamp]
            if body == nil, decoded != nil {
                decoded?.timestamp = timestamp
                body = try? decoded?.validatedBody()
                bodies[timestamp] = body
            }
            guard let body else {
                let (priority, downgrade) = PriorityBudgetRule.priority(send.template.requestedPriority, for: activity, decision: budget)
                unencodable.append(Unencodable(activity: activity, pushID: pushID, priority: priority, downgrade: downgrade))
                continue
            }
            let item = OutboxItem.push(
                to: activity, kind: send.kind, payload: body, requestedPriority: send.template.requestedPriority, budget: budget,
                importance: send.template.importance, collapseKey: send.template.collapseKey, expiration: send.template.expiration,
                acceptedAt: send.acceptedAt,
                pushID: pushID, sendID: send.sendID)
            pushes.append(Push(item: item, activity: activity, timestamp: timestamp))
        }
        return (pushes, unencodable)
    }
}
