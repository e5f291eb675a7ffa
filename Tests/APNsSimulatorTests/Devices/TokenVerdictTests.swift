import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

@Suite struct TokenVerdictTests {
    @Test func unknownTokenIsBadDeviceToken() async throws {
        let fixture = try await DeviceWorldFixture()
        let unknown = String(repeating: "ab", count: 80)
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now), to: unknown))
        #expect(verdict == .rejected(.badDeviceToken, invalidSince: nil))
    }

    @Test func unknownTokenIsAcceptedAndRecordedWhenTheRuleSaysSo() async throws {
        var rules = DeviceRules()
        rules.acceptUnknownTokens = true
        let fixture = try await DeviceWorldFixture(rules: rules)
        let unknown = String(repeating: "cd", count: 40)
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now), to: unknown))
        #expect(verdict == .accepted)
        let unrouted = await fixture.world.unroutedPushHistory()
        #expect(unrouted.count == 1)
        #expect(unrouted.first?.outcome.kind == .noDevice)
        #expect(unrouted.first?.token == unknown)
    }

    @Test func tokenSentToTheOtherEnvironmentIsBadDeviceToken() async throws {
        let fixture = try await DeviceWorldFixture()
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now), environment: .production))
        #expect(verdict == .rejected(.badDeviceToken, invalidSince: nil))
        let last = try #require(try await fixture.activity().history.last)
        #expect(last.status == 400)
        #expect(last.reason == "BadDeviceToken")
    }

    @Test func tokenOfAnotherAppIsDeviceTokenNotForTopic() async throws {
        let fixture = try await DeviceWorldFixture()
        let verdict = await fixture.world.deliver(
            fixture.push(
                DeviceWorldFixture.update(fixture.now), topic: "com.example.other.push-type.liveactivity"))
        #expect(verdict == .rejected(.deviceTokenNotForTopic, invalidSince: nil))
        let pushToStart = await fixture.world.deliver(
            fixture.push(
                DeviceWorldFixture.update(fixture.now), to: fixture.pushToStartToken, topic: "com.example.other.push-type.liveactivity"))
        #expect(pushToStart == .rejected(.deviceTokenNotForTopic, invalidSince: nil))
    }

    @Test func generatedTokensAreLongRandomHex() async throws {
        let fixture = try await DeviceWorldFixture()
        #expect(fixture.activityToken.count == 160)
        #expect(fixture.pushToStartToken.count >= 64)
        #expect(fixture.activityToken != fixture.pushToStartToken)
        #expect((try? DeviceToken(hex: fixture.activityToken)) != nil)
    }

    @Test func rotatedTokenAnswers410WithTheRotationTime() async throws {
        let fixture = try await DeviceWorldFixture()
        fixture.clock.advance(by: 60)
        let rotatedAt = fixture.clock.now()
        let newToken = try await fixture.world.rotateActivityToken(activityID: fixture.activityID)
        #expect(newToken != fixture.activityToken)
        #expect(try await fixture.activity().pushToken == newToken)
        fixture.clock.advance(by: 5)
        let old = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(old == .rejected(.unregistered, invalidSince: rotatedAt))
        let new = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now), to: newToken))
        #expect(new == .accepted)
    }

    @Test func rotatedTokenKeepsWorkingDuringTheRetirementDelay() async throws {
        var rules = DeviceRules()
        rules.tokenRetirementDelay = 300
        let fixture = try await DeviceWorldFixture(rules: rules)
        let rotatedAt = fixture.clock.now()
        _ = try await fixture.world.rotateActivityToken(activityID: fixture.activityID)
        fixture.clock.advance(by: 299)
        #expect(await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now))) == .accepted)
        fixture.clock.advance(by: 1)
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(verdict == .rejected(.unregistered, invalidSince: rotatedAt.addingTimeInterval(300)))
    }

    @Test func rotatedPushToStartTokenAnswers410() async throws {
        let fixture = try await DeviceWorldFixture()
        let newToken = try await fixture.world.rotatePushToStartToken(deviceID: fixture.deviceID)
        #expect(newToken != fixture.pushToStartToken)
        let verdict = await fixture.world.deliver(fixture.push(PushToStartTests.startAPS(fixture.now), to: fixture.pushToStartToken))
        #expect(verdict == .rejected(.unregistered, invalidSince: DeviceWorldFixture.start))
        let device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.apps.first?.pushToStartToken == newToken)
    }
}
