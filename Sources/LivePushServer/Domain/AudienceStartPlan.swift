import APNsCore
import Foundation
import PushStore

/// What the users of one page of an audience start get when the page is sent: decided from their
/// push-to-start tokens as stored at that moment, the starts each device was sent in the budget's window,
/// and the clock. Pure: the page worker acts on it. A target is a device with a valid token, or a user
/// without one.
struct AudienceStartPlan: Sendable, Equatable {
    /// A start push each (the send's payload, to the token).
    var send: [PushToStartTokenRecord] = []
    /// Users with no valid push-to-start token for the type (of the start's app): skipped, `noToken`.
    var noToken: [String] = []
    /// Devices whose push-to-start budget is used: skipped, `budget`.
    var overBudget: [PushToStartTokenRecord] = []
    /// Devices not sent because the start expired before its page was sent: failed, `expired`.
    var expired: [PushToStartTokenRecord] = []

    var targeted: Int { send.count + noToken.count + overBudget.count + expired.count }

    /// The valid tokens of a page's users, the ones whose budget ``plan(_:sent:budget:now:)`` needs.
    static func validTokens(of page: AudienceStartPage) -> [PushToStartTokenRecord] {
        page.tokens.filter { $0.tokenState.isValid }
    }

    /// The plan for `page` at `now`, given the starts sent to each valid token in the budget's window.
    static func plan(_ page: AudienceStartPage, sent: [UUID: Int], budget: PushToStartBudgetRule, now: Date) -> AudienceStartPlan {
        var plan = AudienceStartPlan()
        let valid = validTokens(of: page)
        let withToken = Set(valid.map(\.userID))
        plan.noToken = page.users.filter { !withToken.contains($0) }
        if let expiration = page.send.expiration, expiration <= now {
            plan.expired = valid
            return plan
        }
        (plan.send, plan.overBudget) = budget.split(valid, sent: sent)
        return plan
    }

    /// The push id (and `apns-id`) of an audience start's push to one device: derived, so that a page sent
    /// again after a crash sends and records the same push.
    static func pushID(sendID: UUID, tokenID: UUID) -> UUID {
        GroupSend.pushID(sendID: sendID, activityID: "pushToStartToken:" + tokenID.lowercased)
    }

    /// The start push to one device, as the outbox takes a push-to-start (the target is the token's id, so
    /// a retry goes to the device's newest token).
    static func item(_ start: AudienceStart, to token: PushToStartTokenRecord) -> OutboxItem {
        OutboxItem(
            pushID: pushID(sendID: start.sendID, tokenID: token.id), target: .pushToStartToken(id: token.id), kind: .start,
            payload: start.payload, priority: start.requestedPriority, requestedPriority: start.requestedPriority,
            importance: start.importance, collapseKey: start.collapseKey, expiration: start.expiration, acceptedAt: start.acceptedAt,
            sendID: start.sendID)
    }
}
