import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

@Suite struct PushBudgetTests {
    private func rules(budget: Int, frequent: Int) -> DeviceRules {
        var rules = DeviceRules()
        rules.hourlyPriority10Budget = budget
        rules.frequentHourlyPriority10Budget = frequent
        return rules
    }

    @Test func priority10PushesPastTheHourlyBudgetAreThrottled() async throws {
        let fixture = try await DeviceWorldFixture(rules: rules(budget: 3, frequent: 6))
        for step in 0..<3 {
            _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + step), priority: .immediate))
        }
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + 3, health: 0.1), priority: .immediate))
        #expect(verdict == .accepted)
        var activity = try await fixture.activity()
        #expect(activity.history.map(\.outcome.kind) == [.applied, .applied, .applied, .throttled])
        #expect(activity.contentState["currentHealthLevel"] == 0.5)
        // Priority 5 does not count against the budget.
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + 4, health: 0.2), priority: .conservesPower))
        activity = try await fixture.activity()
        #expect(activity.history.last?.outcome.kind == .applied)
        // An hour later the budget is back.
        fixture.clock.advance(by: 3600)
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now, health: 0.3), priority: .immediate))
        #expect(try await fixture.activity().history.last?.outcome.kind == .applied)
    }

    @Test func frequentPushesRaiseTheBudget() async throws {
        let fixture = try await DeviceWorldFixture(rules: rules(budget: 3, frequent: 6), frequentPushes: true)
        for step in 0..<7 {
            _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + step), priority: .immediate))
        }
        let kinds = try await fixture.activity().history.map(\.outcome.kind)
        #expect(kinds == Array(repeating: .applied, count: 6) + [.throttled])
    }

    @Test func tooManyRequestsToOneTokenGet429() async throws {
        var rules = DeviceRules()
        rules.tooManyRequests = RequestRateLimit(maximumPushes: 5, window: 10)
        rules.hourlyPriority10Budget = nil
        let fixture = try await DeviceWorldFixture(rules: rules)
        for step in 0..<5 {
            let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + step)))
            #expect(verdict == .accepted)
        }
        let sixth = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + 5)))
        #expect(sixth == .rejected(.tooManyRequests, invalidSince: nil))
        fixture.clock.advance(by: 10)
        let later = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(later == .accepted)
    }

    @Test func noRequestLimitWhenTurnedOff() async throws {
        var rules = DeviceRules()
        rules.tooManyRequests = nil
        let fixture = try await DeviceWorldFixture(rules: rules)
        for step in 0..<400 {
            let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now + step)))
            #expect(verdict == .accepted)
        }
    }
}
