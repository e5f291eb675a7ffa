import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import LivePushServer
@testable import PushStore

/// What each member of a group send gets when its page is sent.
@Suite struct GroupSendPlanTests {
    let t = Date(timeIntervalSince1970: 1_800_000_000)

    func page(kind: LiveActivityEvent = .update, supersededBy: UUID? = nil, expiration: Date? = nil) -> GroupSendPage {
        let send = GroupSend(
            groupID: "g", kind: kind,
            template: SendTemplate(
                payload: Data("{}".utf8), timestamp: t, requestedPriority: .conservesPower, importance: .routine, expiration: expiration ?? t + 3600),
            acceptedAt: t + 0.5, createdBy: "backend")
        return GroupSendPage(send: send, firstID: "a", lastID: "z", activities: [], supersededBy: supersededBy)
    }

    func activity(state: ActivityState = .active, lastTimestamp: Date? = nil, lastAcceptedAt: Date? = nil, invalid: Bool = false) -> ActivityRecord {
        ActivityRecord(
            activityID: "a", pushToken: DeviceToken(bytes: Array(repeating: 1, count: 32)), bundleID: "b", attributesType: "T",
            environment: .sandbox, userID: nil, groups: ["g"], frequentPushesEnabled: false, state: state,
            tokenState: invalid ? .invalid(reason: "Unregistered", at: t) : .valid, registeredAt: t, updatedAt: t, startedAt: t,
            endedAt: nil, dismissalDate: nil, lastContentState: nil, lastTimestamp: lastTimestamp, lastAcceptedAt: lastAcceptedAt)
    }

    @Test func timestampsIncreaseOverWhatTheActivityTook() {
        #expect(GroupSendPlan.plan(activity(), in: page(), now: t) == .send(timestamp: t))
        #expect(GroupSendPlan.plan(activity(lastTimestamp: t - 5, lastAcceptedAt: t), in: page(), now: t) == .send(timestamp: t))
        #expect(
            GroupSendPlan.plan(activity(lastTimestamp: t + 1, lastAcceptedAt: t + 0.4), in: page(), now: t) == .send(timestamp: t + 2),
            "an earlier-accepted push holds a later timestamp: one second after it")
    }

    @Test func laterPushesReplaceAnUpdateButNotAnEnd() {
        let later = activity(lastTimestamp: t, lastAcceptedAt: t + 0.6)
        guard case .coalesced(_, let by) = GroupSendPlan.plan(later, in: page(), now: t) else {
            Issue.record("an update accepted after the send replaces it")
            return
        }
        #expect(by == nil)
        #expect(GroupSendPlan.plan(later, in: page(kind: .end), now: t) == .send(timestamp: t + 1), "an end is sent after it")
        let newer = UUID()
        guard case .coalesced(_, let into) = GroupSendPlan.plan(activity(), in: page(supersededBy: newer), now: t) else {
            Issue.record("a newer routine group update replaces it")
            return
        }
        #expect(into == GroupSendPlan.pushID(sendID: newer, activityID: "a"))
    }

    @Test func endedDismissedAndInvalidMembersAreSkippedAndLateOnesExpire() {
        #expect(GroupSendPlan.plan(activity(state: .ended), in: page(), now: t) == .skipped)
        #expect(GroupSendPlan.plan(activity(state: .dismissed), in: page(kind: .end), now: t) == .skipped)
        #expect(GroupSendPlan.plan(activity(invalid: true), in: page(), now: t) == .skipped)
        #expect(GroupSendPlan.plan(activity(), in: page(expiration: t), now: t) == .expired)
    }

    @Test func pushIDsAreStablePerSendAndActivity() {
        let send = UUID()
        let id = GroupSendPlan.pushID(sendID: send, activityID: "a")
        #expect(id == GroupSendPlan.pushID(sendID: send, activityID: "a"))
        #expect(id != GroupSendPlan.pushID(sendID: send, activityID: "b"))
        #expect(id != GroupSendPlan.pushID(sendID: UUID(), activityID: "a"))
        #expect(id.uuidString.lowercased().dropFirst(14).first == "8", "version 8")
    }

    /// The page's items follow the rules of every push to an activity: the member's timestamp (the send's
    /// payload re-encoded once per distinct timestamp), priority 10 within its budget, else 5 with the reason.
    @Test func pagePushesCarryEachMembersTimestampAndBudget() throws {
        let payload = try LiveActivityPayload.update(contentState: .object(["score": .number(1)]), timestamp: t).validatedBody()
        let send = GroupSend(
            groupID: "g", kind: .update,
            template: SendTemplate(payload: payload, timestamp: t, requestedPriority: .immediate, importance: .timeSensitive, expiration: t + 3600),
            acceptedAt: t, createdBy: "backend")
        var behind = activity(lastTimestamp: t + 1)
        behind.activityID = "b"
        let budgets = [
            "a": BudgetDecision(granted: true, usedInWindow: 1, limit: 10), "b": BudgetDecision(granted: false, usedInWindow: 10, limit: 10),
        ]
        let (pushes, unencodable) = GroupSendPlan.pushes(send, planned: [(activity(), t), (behind, t + 2)], budgets: budgets)
        #expect(unencodable.isEmpty)
        try #require(pushes.count == 2)
        #expect(pushes[0].item.priority == .immediate && pushes[0].item.downgradeReason == nil && pushes[0].item.payload == payload)
        #expect(pushes[0].item.pushID == GroupSendPlan.pushID(sendID: send.sendID, activityID: "a") && pushes[0].item.sendID == send.sendID)
        #expect(pushes[1].item.priority == .conservesPower && pushes[1].item.requestedPriority == .immediate)
        #expect(pushes[1].item.downgradeReason == "hourly priority-10 budget of 10 used (10 in the last hour); sent at priority 5")
        #expect(try LiveActivityPayload.decode(from: pushes[1].item.payload).timestamp == t + 2)
        #expect(pushes[1].timestamp == t + 2 && pushes[1].item.target == .activity(id: "b"))
    }

    /// A payload the page cannot re-encode (not a Live Activity body) goes out only at the send's own
    /// timestamp; a member that needs a later one is reported, with the priority it would have had.
    @Test func aMemberWhosePayloadCannotBeReencodedIsReported() {
        let send = page().send
        let (pushes, unencodable) = GroupSendPlan.pushes(send, planned: [(activity(), t), (activity(lastTimestamp: t), t + 1)], budgets: [:])
        #expect(pushes.map(\.timestamp) == [t])
        #expect(unencodable.count == 1 && unencodable.first?.priority == .conservesPower && unencodable.first?.downgrade == nil)
    }

    @Test func theTimestampRuleIsOneSecondAfterTheNewest() {
        #expect(TimestampIssuer.timestamp(t, after: nil) == t)
        #expect(TimestampIssuer.timestamp(t, after: t - 1) == t)
        #expect(TimestampIssuer.timestamp(t, after: t) == t + 1)
        #expect(TimestampIssuer.timestamp(t, after: t + 5) == t + 6)
    }

    @Test func aBroadcastOverItsChannelsBudgetIsSentAtPriorityFive() {
        let (priority, reason) = PriorityBudgetRule.priority(.immediate, forChannel: BudgetDecision(granted: false, usedInWindow: 3, limit: 3))
        #expect(priority == .conservesPower)
        #expect(reason == "hourly priority-10 budget of channel of 3 used (3 in the last hour); sent at priority 5")
        let granted = PriorityBudgetRule.priority(.immediate, forChannel: BudgetDecision(granted: true, usedInWindow: 1, limit: 3))
        #expect(granted.0 == .immediate && granted.1 == nil)
    }
}
