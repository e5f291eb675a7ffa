import Foundation
import Testing

@testable import LivePushKit

/// What the journal owes the server after each event and answer: the newest token wins, in order.
@Suite struct JournalStateTests: SampleTokens {
    @Test func aNewerTokenReplacesOneNeverSent() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: ["g"])
        _ = state.record(token: b, activityID: "x", attributesType: "T", groups: [])
        #expect(state.nextUpload == .register(activityID: "x", attributesType: "T", groups: ["g"], token: b, frequentPushesEnabled: false))
        #expect(state.pendingCount == 1)
    }

    /// An activity the server started for a Live Activity resource is registered with its key, also when a
    /// rotated token (reported without it) arrives before the registration went out.
    @Test func theKeyOfALiveActivityResourceGoesWithItsRegistration() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: [], liveActivityKey: "order-1")
        _ = state.record(token: b, activityID: "x", attributesType: "T", groups: [])
        #expect(
            state.nextUpload
                == .register(activityID: "x", attributesType: "T", groups: [], token: b, frequentPushesEnabled: false, liveActivityKey: "order-1"))
        _ = state.record(token: c, activityID: "y", attributesType: "T", groups: [])
        state.acknowledge(state.nextUpload!)
        #expect(state.nextUpload == .register(activityID: "y", attributesType: "T", groups: [], token: c, frequentPushesEnabled: false))
    }

    @Test func aTokenArrivingWhileTheOlderIsInFlightIsSentAfterItAsARotation() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: [])
        let inFlight = state.nextUpload!
        _ = state.record(token: b, activityID: "x", attributesType: "T", groups: [])
        state.acknowledge(inFlight)
        #expect(state.nextUpload == .rotate(activityID: "x", token: b))
        state.acknowledge(.rotate(activityID: "x", token: b))
        #expect(state.nextUpload == nil)
    }

    @Test func changesGoOutInTheOrderTheyArrived() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "first", attributesType: "T", groups: [])
        _ = state.record(pushToStart: b, attributesType: "T", source: .property)
        _ = state.record(token: c, activityID: "third", attributesType: "T", groups: [])
        var order: [Upload] = []
        while let next = state.nextUpload {
            order.append(next)
            state.acknowledge(next)
        }
        #expect(
            order == [
                .register(activityID: "first", attributesType: "T", groups: [], token: a, frequentPushesEnabled: false),
                .pushToStart(attributesType: "T", token: b, source: .property),
                .register(activityID: "third", attributesType: "T", groups: [], token: c, frequentPushesEnabled: false),
            ])
    }

    @Test func anEndFollowsTheRegistrationAndADismissalForgetsTheActivity() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: [])
        _ = state.record(end: .ended(dismissalDate: nil), activityID: "x")
        // The registration is still owed; the end waits for it.
        #expect(state.nextUpload == nil)
        state.acknowledge(.register(activityID: "x", attributesType: "T", groups: [], token: a, frequentPushesEnabled: false))
        #expect(state.nextUpload == .end(activityID: "x", .ended(dismissalDate: nil)))
        state.acknowledge(.end(activityID: "x", .ended(dismissalDate: nil)))
        _ = state.record(end: .dismissed, activityID: "x")
        #expect(state.nextUpload == .end(activityID: "x", .dismissed))
        state.acknowledge(.end(activityID: "x", .dismissed))
        #expect(state.activities.isEmpty)
    }

    @Test func anActivityThatEndedBeforeTheServerKnewItIsDroppedAtTheNextLaunch() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: [])
        _ = state.record(end: .dismissed, activityID: "x")
        state.dropUnregisteredEnds()
        #expect(state.activities.isEmpty)
        #expect(state.nextUpload == nil)
    }

    @Test func aRefusedTokenIsNotSentAgainButANewerOneIs() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: [])
        state.refuse(state.nextUpload!)
        #expect(state.nextUpload == nil)
        _ = state.record(token: b, activityID: "x", attributesType: "T", groups: [])
        #expect(state.nextUpload == .register(activityID: "x", attributesType: "T", groups: [], token: b, frequentPushesEnabled: false))
    }

    @Test func aRotationTheServerDoesNotKnowBecomesARegistration() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: [])
        state.acknowledge(state.nextUpload!)
        _ = state.record(token: b, activityID: "x", attributesType: "T", groups: [])
        state.forgetServerCopy(of: state.nextUpload!)
        #expect(state.nextUpload == .register(activityID: "x", attributesType: "T", groups: [], token: b, frequentPushesEnabled: false))
    }

    @Test func frequentPushesEnabledRegistersRunningActivitiesAgain() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "x", attributesType: "T", groups: [])
        state.acknowledge(state.nextUpload!)
        let changed = state.record(authorization: ActivityAuthorization(activitiesEnabled: true, frequentPushesEnabled: true))
        #expect(changed)
        #expect(state.nextUpload == .register(activityID: "x", attributesType: "T", groups: [], token: a, frequentPushesEnabled: true))
    }

    @Test func theSamePushToStartTokenFromThePropertyIsNotSentTwice() {
        var state = JournalState(deviceID: "d")
        let first = state.record(pushToStart: a, attributesType: "T", source: .stream)
        #expect(first)
        state.acknowledge(state.nextUpload!)
        let again = state.record(pushToStart: a, attributesType: "T", source: .property)
        #expect(!again)
        #expect(state.nextUpload == nil)
    }
}
