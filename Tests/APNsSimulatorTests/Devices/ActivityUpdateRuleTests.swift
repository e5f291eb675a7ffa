import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

@Suite struct ActivityUpdateRuleTests {
    @Test func updateIsApplied() async throws {
        let fixture = try await DeviceWorldFixture()
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now, health: 0.25)))
        #expect(verdict == .accepted)
        let activity = try await fixture.activity()
        #expect(activity.contentState["currentHealthLevel"] == 0.25)
        #expect(activity.history.last?.outcome.kind == .applied)
        #expect(activity.history.last?.status == 200)
    }

    @Test func contentStateThatDoesNotDecodeIsDroppedAfter200() async throws {
        let fixture = try await DeviceWorldFixture()
        let aps: JSONValue = [
            "event": "update", "timestamp": .number(Double(fixture.now)),
            "content-state": ["currentHealthLevel": "high", "eventDescription": "Hit"],
        ]
        let verdict = await fixture.world.deliver(fixture.push(aps))
        #expect(verdict == .accepted)
        let activity = try await fixture.activity()
        #expect(activity.contentState["currentHealthLevel"] == 1.0)
        let last = try #require(activity.history.last)
        #expect(last.status == 200)
        #expect(last.outcome.kind == .decodeFailure)
        #expect(last.outcome.detail?.contains("currentHealthLevel") == true)
        #expect(last.outcome.detail?.contains("expected number") == true)
    }

    @Test func missingRequiredFieldIsADecodeFailure() async throws {
        let fixture = try await DeviceWorldFixture()
        let aps: JSONValue = [
            "event": "update", "timestamp": .number(Double(fixture.now)),
            "content-state": ["current_health_level": 0.5, "eventDescription": "Hit"],
        ]
        _ = await fixture.world.deliver(fixture.push(aps))
        let last = try #require(try await fixture.activity().history.last)
        #expect(last.outcome.kind == .decodeFailure)
        #expect(last.outcome.detail?.contains("currentHealthLevel: missing") == true)
    }

    @Test func olderTimestampIsIgnoredAndEqualIsApplied() async throws {
        let fixture = try await DeviceWorldFixture()
        let t = fixture.now
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(t, health: 0.5)))
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(t - 1, health: 0.9)))
        var activity = try await fixture.activity()
        #expect(activity.contentState["currentHealthLevel"] == 0.5)
        #expect(activity.history.last?.outcome.kind == .ignoredOlderTimestamp)
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(t, health: 0.7)))
        activity = try await fixture.activity()
        #expect(activity.contentState["currentHealthLevel"] == 0.7)
    }

    @Test func equalTimestampIsIgnoredWhenTheRuleSaysSo() async throws {
        var rules = DeviceRules()
        rules.ignoreEqualTimestamps = true
        let fixture = try await DeviceWorldFixture(rules: rules)
        let t = fixture.now
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(t, health: 0.5)))
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(t, health: 0.7)))
        let activity = try await fixture.activity()
        #expect(activity.contentState["currentHealthLevel"] == 0.5)
        #expect(activity.history.last?.outcome.kind == .ignoredOlderTimestamp)
    }

    @Test func staleDatePassingMakesTheActivityStaleAndANewUpdateRefreshesIt() async throws {
        let fixture = try await DeviceWorldFixture()
        let t = fixture.now
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(t, extra: ["stale-date": .number(Double(t + 600))])))
        #expect(try await fixture.activity().state == .active)
        fixture.clock.advance(by: 599)
        #expect(try await fixture.activity().state == .active)
        fixture.clock.advance(by: 1)
        let stale = try await fixture.activity()
        #expect(stale.state == .stale)
        #expect(stale.staleDate == Date(timeIntervalSince1970: Double(t + 600)))
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(try await fixture.activity().state == .active)
    }

    @Test func relevanceScoreOrdersTheDevicesActivities() async throws {
        let fixture = try await DeviceWorldFixture()
        let second = try await fixture.world.startActivity(
            deviceID: fixture.deviceID,
            ActivityRequest(
                attributesType: "AdventureAttributes", attributes: ["hero": "Cake"],
                contentState: ["currentHealthLevel": 1.0, "eventDescription": "Ready"], relevanceScore: 50))
        var device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.activities.map(\.activityID) == [second.activityID, fixture.activityID])
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now, extra: ["relevance-score": 100])))
        device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.activities.map(\.activityID) == [fixture.activityID, second.activityID])
        #expect(device.activities.first?.relevanceScore == 100)
    }

    @Test func pushesAfterEndAreIgnored() async throws {
        let fixture = try await DeviceWorldFixture()
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.end(fixture.now)))
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + 10, health: 0.9)))
        #expect(verdict == .accepted)
        let activity = try await fixture.activity()
        #expect(activity.state == .ended)
        #expect(activity.contentState["eventDescription"] == "Over")
        #expect(activity.history.last?.outcome.kind == .ignoredAfterEnd)
    }

    @Test func endWithoutContentStateKeepsTheLastState() async throws {
        // WWDC23: the final content state is optional; without it the activity keeps its last state.
        let fixture = try await DeviceWorldFixture()
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now, health: 0.25)))
        let end: JSONValue = ["event": "end", "timestamp": .number(Double(fixture.now + 1))]
        #expect(await fixture.world.deliver(fixture.push(end)) == .accepted)
        let activity = try await fixture.activity()
        #expect(activity.state == .ended)
        #expect(activity.contentState["currentHealthLevel"] == 0.25)
        #expect(activity.history.last?.outcome.kind == .applied)
    }

    @Test func updateWithoutContentStateIsADecodeFailure() async throws {
        let fixture = try await DeviceWorldFixture()
        let update: JSONValue = ["event": "update", "timestamp": .number(Double(fixture.now))]
        _ = await fixture.world.deliver(fixture.push(update))
        let activity = try await fixture.activity()
        #expect(activity.state == .active)
        #expect(activity.history.last?.outcome.kind == .decodeFailure)
    }

    @Test func startEventOnAnActivityTokenIsDropped() async throws {
        let fixture = try await DeviceWorldFixture()
        var aps = DeviceWorldFixture.update(fixture.now).objectValue ?? [:]
        aps["event"] = "start"
        _ = await fixture.world.deliver(fixture.push(.object(aps)))
        let last = try #require(try await fixture.activity().history.last)
        #expect(last.outcome.kind == .dropped)
    }
}
