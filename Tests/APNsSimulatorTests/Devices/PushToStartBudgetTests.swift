import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

/// The push-to-start budget (docs/apns-protocol.md §9): about 10 starts in a short window per app and
/// device, a `DeviceRules` setting because Apple publishes no number.
@Suite struct PushToStartBudgetTests {
    private func start(_ fixture: DeviceWorldFixture) async throws -> DeviceOutcome.Kind? {
        let verdict = await fixture.world.deliver(fixture.push(PushToStartTests.startAPS(fixture.now), to: fixture.pushToStartToken))
        #expect(verdict == .accepted, "the budget is the device's: APNs still answers 200")
        return try await fixture.world.device(id: fixture.deviceID).apps.first?.history.last?.outcome.kind
    }

    @Test func startsPastTheBudgetAreDroppedUntilTheWindowMoves() async throws {
        var rules = DeviceRules()
        rules.pushToStartBudget = RequestRateLimit(maximumPushes: 3, window: 600)
        let fixture = try await DeviceWorldFixture(rules: rules)
        for _ in 0..<3 {
            #expect(try await start(fixture) == .started)
            fixture.clock.advance(by: 10)
        }
        #expect(try await start(fixture) == .throttled)
        let history = try await fixture.world.device(id: fixture.deviceID).apps.first?.history ?? []
        #expect(history.last?.outcome.detail?.contains("Push-to-start budget exceeded") == true)
        let running = try await fixture.world.device(id: fixture.deviceID).activities.count
        #expect(running == 4, "the fixture's activity and three started ones")
        // The first start leaves the window 600 s after it: one more fits.
        fixture.clock.advance(by: 600 - 30)
        #expect(try await start(fixture) == .started)
        #expect(try await start(fixture) == .throttled)
    }

    @Test func frequentUpdatesDoNotRaiseTheBudget() async throws {
        var rules = DeviceRules()
        rules.pushToStartBudget = RequestRateLimit(maximumPushes: 2, window: 600)
        let fixture = try await DeviceWorldFixture(rules: rules, frequentPushes: true)
        #expect(try await start(fixture) == .started)
        #expect(try await start(fixture) == .started)
        #expect(try await start(fixture) == .throttled)
    }

    @Test func theDefaultIsTenStarts() async throws {
        let fixture = try await DeviceWorldFixture()
        #expect(DeviceRules().pushToStartBudget == RequestRateLimit(maximumPushes: 10, window: 3600))
        for _ in 0..<10 { #expect(try await start(fixture) == .started) }
        #expect(try await start(fixture) == .throttled)
    }

    @Test func noBudgetWhenTurnedOff() async throws {
        var rules = DeviceRules()
        rules.pushToStartBudget = nil
        let fixture = try await DeviceWorldFixture(rules: rules)
        for _ in 0..<12 { #expect(try await start(fixture) == .started) }
    }
}
