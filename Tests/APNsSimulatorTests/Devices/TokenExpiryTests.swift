import APNsCore
import APNsSimulator
import Foundation
import Testing

/// 410 `ExpiredToken` (docs/apns-protocol.md §4.3): a token the control API expired is refused from then
/// on, with the expiry time as the body's timestamp; other tokens of the device keep working.
@Suite struct TokenExpiryTests {
    @Test func anExpiredActivityTokenAnswersExpiredTokenWithTheExpiryTime() async throws {
        let fixture = try await DeviceWorldFixture()
        fixture.clock.advance(by: 30)
        let expiredAt = try await fixture.world.expireToken(fixture.activityToken.uppercased())
        #expect(expiredAt == fixture.clock.now())
        fixture.clock.advance(by: 5)
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        #expect(verdict == .rejected(.expiredToken, invalidSince: expiredAt))
        let last = try #require(try await fixture.activity().history.last)
        #expect(last.status == 410 && last.reason == "ExpiredToken")
        // Expiring it again keeps the first time; the push-to-start token is untouched.
        #expect(try await fixture.world.expireToken(fixture.activityToken) == expiredAt)
        let start = await fixture.world.deliver(fixture.push(PushToStartTests.startAPS(fixture.now), to: fixture.pushToStartToken))
        #expect(start == .accepted)
    }

    @Test func anExpiredPushToStartTokenAnswersExpiredToken() async throws {
        let fixture = try await DeviceWorldFixture()
        let expiredAt = try await fixture.world.expireToken(fixture.pushToStartToken)
        let verdict = await fixture.world.deliver(fixture.push(PushToStartTests.startAPS(fixture.now), to: fixture.pushToStartToken))
        #expect(verdict == .rejected(.expiredToken, invalidSince: expiredAt))
    }

    @Test func anUnknownTokenCannotBeExpired() async throws {
        let fixture = try await DeviceWorldFixture()
        let error = await #expect(throws: DeviceWorldError.self) {
            try await fixture.world.expireToken(String(repeating: "ab", count: 32))
        }
        #expect(error?.kind == .notFound && error?.field == "token")
    }
}
