import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

@Suite struct ActivityLifetimeTests {
    @Test func endWithoutDismissalDateStaysFourHours() async throws {
        let fixture = try await DeviceWorldFixture()
        let t = fixture.now
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.end(t)))
        let ended = try await fixture.activity()
        #expect(ended.state == .ended)
        #expect(ended.endedBy == .push)
        #expect(ended.contentState["eventDescription"] == "Over")
        #expect(ended.dismissalDate == DeviceWorldFixture.start.addingTimeInterval(4 * 3600))
        fixture.clock.advance(by: 4 * 3600 - 1)
        #expect(try await fixture.activity().state == .ended)
        fixture.clock.advance(by: 1)
        #expect(try await fixture.activity().state == .dismissed)
    }

    @Test func dismissalDateBeyondFourHoursIsCapped() async throws {
        let fixture = try await DeviceWorldFixture()
        let t = fixture.now
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.end(t, dismissal: t + 10 * 3600)))
        #expect(try await fixture.activity().dismissalDate == Date(timeIntervalSince1970: Double(t + 4 * 3600)))
    }

    @Test func dismissalDateWithinFourHoursIsKept() async throws {
        let fixture = try await DeviceWorldFixture()
        let t = fixture.now
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.end(t, dismissal: t + 900)))
        #expect(try await fixture.activity().dismissalDate == Date(timeIntervalSince1970: Double(t + 900)))
    }

    @Test func pastDismissalDateDismissesAtOnceAndTheTokenAnswers410() async throws {
        let fixture = try await DeviceWorldFixture()
        let t = fixture.now
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.end(t, dismissal: t - 60)))
        let activity = try await fixture.activity()
        #expect(activity.state == .dismissed)
        #expect(activity.dismissalDate == DeviceWorldFixture.start)
        fixture.clock.advance(by: 30)
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(verdict == .rejected(.unregistered, invalidSince: DeviceWorldFixture.start))
        #expect(try await fixture.activity().history.last?.outcome.kind == .notDelivered)
    }

    @Test func systemEndsTheActivityAfterEightHoursAndRemovesItAfterTwelve() async throws {
        let fixture = try await DeviceWorldFixture()
        fixture.clock.advance(by: 8 * 3600 - 1)
        #expect(try await fixture.activity().state == .active)
        fixture.clock.advance(by: 1)
        let ended = try await fixture.activity()
        #expect(ended.state == .ended)
        #expect(ended.endedBy == .system)
        #expect(ended.endedAt == DeviceWorldFixture.start.addingTimeInterval(8 * 3600))
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(verdict == .accepted)
        #expect(try await fixture.activity().history.last?.outcome.kind == .ignoredAfterEnd)
        fixture.clock.advance(by: 4 * 3600 - 1)
        #expect(try await fixture.activity().state == .ended)
        fixture.clock.advance(by: 1)
        #expect(try await fixture.activity().state == .dismissed)
        let late = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(late == .rejected(.unregistered, invalidSince: DeviceWorldFixture.start.addingTimeInterval(12 * 3600)))
    }

    @Test func dismissalNeverExceedsTheTwelveHourTotal() async throws {
        let fixture = try await DeviceWorldFixture()
        fixture.clock.advance(by: 7 * 3600)
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.end(fixture.now, dismissal: fixture.now + 4 * 3600)))
        let activity = try await fixture.activity()
        #expect(activity.dismissalDate == DeviceWorldFixture.start.addingTimeInterval(11 * 3600))
        var rules = DeviceRules()
        rules.maximumDismissalDelay = 8 * 3600
        let loose = try await DeviceWorldFixture(rules: rules)
        loose.clock.advance(by: 7 * 3600)
        _ = await loose.world.deliver(loose.push(DeviceWorldFixture.end(loose.now, dismissal: loose.now + 8 * 3600)))
        #expect(try await loose.activity().dismissalDate == DeviceWorldFixture.start.addingTimeInterval(12 * 3600))
    }

    @Test func endFromTheAppUsesTheDefaultDismissalOrImmediate() async throws {
        let fixture = try await DeviceWorldFixture()
        let ended = try await fixture.world.endActivity(activityID: fixture.activityID)
        #expect(ended.state == .ended)
        #expect(ended.endedBy == .app)
        await #expect(throws: DeviceWorldError.self) { try await fixture.world.endActivity(activityID: fixture.activityID) }
        let other = try await DeviceWorldFixture()
        let dismissed = try await other.world.endActivity(activityID: other.activityID, immediate: true)
        #expect(dismissed.state == .dismissed)
    }
}
