import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import LivePushServer
@testable import PushStore

/// The rules of a Live Activity kept by key, without a store or a server: the step each PUT, DELETE and
/// registration takes from what is stored.
@Suite struct LiveActivityResourceRulesTests {
    let t = Date(timeIntervalSince1970: 1_800_000_000)

    func wanted(hp: Double, attributes: JSONValue = ["hero": "Panda"]) -> WantedLiveActivity {
        WantedLiveActivity(attributesType: "T", attributes: attributes, contentState: ["hp": .number(hp)], alert: ["title": "Go"])
    }

    func stored(_ state: LiveActivityResourceState, hp: Double = 1, startedAt: Date? = nil) -> LiveActivityResourceRecord {
        var record = LiveActivityResourceRecord(
            userID: "u1", key: "k", attributesType: "T", attributes: ["hero": "Panda"], wanted: wanted(hp: hp).shown, state: state, createdAt: t)
        record.activityID = state == .active ? "a1" : nil
        record.startedAt = startedAt ?? t
        return record
    }

    func activity(_ id: String = "a1", user: String? = "u1", type: String = "T", startedAt: Date? = nil, state: ActivityState = .active)
        -> ActivityRecord
    {
        ActivityRecord(
            activityID: id, pushToken: DeviceToken(bytes: Array(repeating: 1, count: 32)), bundleID: "b", attributesType: type,
            environment: .sandbox, userID: user, groups: [], frequentPushesEnabled: false, state: state, tokenState: .valid, registeredAt: t,
            updatedAt: t, startedAt: startedAt ?? t + 1, endedAt: nil, dismissalDate: nil, lastContentState: nil, lastTimestamp: nil,
            lastAcceptedAt: nil)
    }

    @Test func eachPutTakesTheStepItsResourceNeeds() throws {
        typealias Rules = LiveActivityResourceRules
        #expect(try Rules.step(wanted(hp: 1), stored: nil, running: nil) == .start, "none yet: start")
        #expect(try Rules.step(wanted(hp: 1), stored: stored(.starting), running: nil) == .unchanged)
        #expect(try Rules.step(wanted(hp: 2), stored: stored(.starting), running: nil) == .queue, "the start waits: keep the newest")
        #expect(try Rules.step(wanted(hp: 2), stored: stored(.ending), running: nil) == .queue, "PUT after a DELETE that waits: keep it")
        #expect(try Rules.step(wanted(hp: 1), stored: stored(.active), running: activity()) == .unchanged)
        #expect(try Rules.step(wanted(hp: 2), stored: stored(.active), running: activity()) == .update(activityID: "a1"))
        #expect(try Rules.step(wanted(hp: 1), stored: stored(.active), running: nil) == .start, "its activity ended on the device: a new one")
        #expect(try Rules.step(wanted(hp: 1), stored: stored(.ended), running: nil) == .start)
        #expect(try Rules.step(wanted(hp: 1), stored: stored(.refused), running: nil) == .start, "refused: tried again")
        var alert = wanted(hp: 1)
        alert.alert = ["title": "Other"]
        #expect(try Rules.step(alert, stored: stored(.active), running: activity()) == .update(activityID: "a1"), "a new alert is news")
        #expect(throws: DomainError.self, "attributes are static while one runs") {
            try Rules.step(wanted(hp: 1, attributes: ["hero": "Cat"]), stored: stored(.active), running: activity())
        }
        #expect(try Rules.step(wanted(hp: 1, attributes: ["hero": "Cat"]), stored: stored(.ended), running: nil) == .start)
    }

    @Test func deleteEndsWhatRunsOrWhatArrives() {
        typealias Rules = LiveActivityResourceRules
        #expect(Rules.endStep(stored: stored(.active), running: activity()) == .end(activityID: "a1"))
        #expect(Rules.endStep(stored: stored(.active), running: nil) == .markEnded)
        #expect(Rules.endStep(stored: stored(.starting), running: nil) == .endOnArrival)
        for state in [LiveActivityResourceState.ending, .ended, .refused] {
            #expect(Rules.endStep(stored: stored(state), running: nil) == .unchanged)
        }
    }

    @Test func aRegistrationAnswersTheOldestStartOfItsUserAndTypeSentBeforeItBegan() {
        typealias Rules = LiveActivityResourceRules
        var late = stored(.starting, startedAt: t + 5)
        late.key = "late"
        let waiting = [stored(.starting), late]
        #expect(Rules.resourceAnswered(by: activity(startedAt: t + 10), waiting: waiting)?.key == "k")
        #expect(Rules.resourceAnswered(by: activity(startedAt: t - 1), waiting: waiting) == nil, "an older activity registering again")
        #expect(Rules.resourceAnswered(by: activity(user: "u2"), waiting: waiting) == nil, "another user's")
        #expect(Rules.resourceAnswered(by: activity(type: "Other"), waiting: waiting) == nil)
        var linked = stored(.starting)
        linked.activityIDs = ["a1"]
        #expect(Rules.resourceAnswered(by: activity(), waiting: [linked]) == nil, "an activity it had already")
    }
}
