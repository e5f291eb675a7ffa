import APNsClient
import APNsCore
import Foundation
import LivePushTesting
import Testing

/// The 2026 token reasons as the client reports them, against the simulator over real sockets.
@Suite struct TokenReasonTests {
    /// 410 `ExpiredToken`: a typed reason, its status and timestamp, and no retry (docs/apns-protocol.md §4.3).
    @Test func anExpiredTokenIsReportedOnceWithItsTimestamp() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            let activity = try await apns.startRangersActivity()
            let expiredAt = try await apns.simulator.world.expireToken(activity.pushToken)
            let request = try Rangers.update(token: activity.pushToken, health: 0.5, text: "Too late")
            let outcome = try await apns.withClient { client in await client.deliver(request) }
            let response = try #require(outcome.response)
            #expect(response.status == 410)
            #expect(response.reason == .expiredToken)
            #expect(response.reason?.invalidatesToken == true)
            #expect(response.reason?.advice == .neverRetry)
            let timestamp = try #require(response.timestamp)
            #expect(abs(timestamp.timeIntervalSince(expiredAt)) < 0.001)
            #expect(response.apnsUniqueID == nil, "error answers carry no apns-unique-id")
            #expect(outcome.attempts == 1, "ExpiredToken is never retried")
        }
    }
}
