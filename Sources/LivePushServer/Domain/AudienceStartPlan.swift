import APNsCore
import Foundation
import PushStore

/// What the users of one page of an audience start get when the page is sent: decided from their
/// push-to-start tokens as stored at that moment, the starts the push-to-start budget granted
/// (``PushToStartBudgetRule``, asked for the page's ``candidates(of:now:)``), and the clock. Pure: the
/// page worker acts on it. A target is a device with a valid token, or a user without one.
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

    /// The valid tokens of a page's users.
    static func validTokens(of page: AudienceStartPage) -> [PushToStartTokenRecord] {
        page.tokens.filter { $0.tokenState.isValid }
    }

    /// The starts of `page` the budget is asked for at `now`, each with its push id: one per valid token,
    /// none once the start has expired.
    static func candidates(of page: AudienceStartPage, now: Date) -> [PushToStartReservation] {
        if let expiration = page.send.template.expiration, expiration <= now { return [] }
        return validTokens(of: page).map { PushToStartReservation(tokenID: $0.id, pushID: pushID(sendID: page.send.sendID, tokenID: $0.id)) }
    }

    /// The plan for `page` at `now`, given the push ids of the starts the budget granted.
    static func plan(_ page: AudienceStartPage, granted: Set<UUID>, now: Date) -> AudienceStartPlan {
        var plan = AudienceStartPlan()
        let valid = validTokens(of: page)
        let withToken = Set(valid.map(\.userID))
        plan.noToken = page.users.filter { !withToken.contains($0) }
        if let expiration = page.send.template.expiration, expiration <= now {
            plan.expired = valid
            return plan
        }
        for token in valid {
            if granted.contains(pushID(sendID: page.send.sendID, tokenID: token.id)) {
                plan.send.append(token)
            } else {
                plan.overBudget.append(token)
            }
        }
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
            payload: start.template.payload, priority: start.template.requestedPriority, requestedPriority: start.template.requestedPriority,
            importance: start.template.importance, collapseKey: start.template.collapseKey, expiration: start.template.expiration,
            acceptedAt: start.acceptedAt,
            sendID: start.sendID)
    }
}
