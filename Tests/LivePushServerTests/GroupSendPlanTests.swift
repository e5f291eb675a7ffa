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
            groupID: "g", kind: kind, payload: Data("{}".utf8), timestamp: t, requestedPriority: .conservesPower,
            importance: .routine, expiration: expiration ?? t + 3600, acceptedAt: t + 0.5, createdBy: "backend")
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
}
