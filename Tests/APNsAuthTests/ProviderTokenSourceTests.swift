import APNsAuth
import APNsCore
import Foundation
import MetricsTestKit
import Testing

@Suite("ProviderTokenSource")
struct ProviderTokenSourceTests {
    let key = APNsSigningKey.generate()

    func makeSource(clock: ManualWallClock, refreshInterval: TimeInterval = 50 * 60) throws -> ProviderTokenSource {
        try ProviderTokenSource(key: key, keyID: "KEY1234567", teamID: "TEAM123456", refreshInterval: refreshInterval, clock: clock)
    }

    @Test func sameTokenUntilTheRefreshIntervalThenANewOne() throws {
        let clock = ManualWallClock()
        let source = try makeSource(clock: clock)
        #expect(source.signedCount == 0)
        let first = source.current()
        #expect(source.signedCount == 1)
        #expect(first.issuedAt == clock.now())
        clock.advance(by: 49 * 60 + 59)
        #expect(source.current() == first)
        #expect(source.signedCount == 1)
        clock.advance(by: 1)
        let second = source.current()
        #expect(second != first)
        #expect(second.issuedAt == clock.now())
        #expect(source.signedCount == 2)
        #expect(source.current() == second)
        _ = try ProviderTokenVerifier.verify(second.jwt, publicKey: key.publicKey)
    }

    @Test func refreshIntervalBounds() throws {
        let clock = ManualWallClock()
        for allowed: TimeInterval in [20 * 60, 30 * 60, 60 * 60] {
            #expect(try makeSource(clock: clock, refreshInterval: allowed).refreshInterval == allowed)
        }
        for refused: TimeInterval in [0, -1, 20 * 60 - 1, 60 * 60 + 1, .infinity, .nan] {
            #expect(throws: ProviderTokenSourceError.self) { try makeSource(clock: clock, refreshInterval: refused) }
        }
        #expect(throws: ProviderTokenSourceError.refreshIntervalOutOfRange(61 * 60)) {
            try makeSource(clock: clock, refreshInterval: 61 * 60)
        }
        #expect(ProviderTokenSourceError.refreshIntervalOutOfRange(61 * 60).description.contains("20...60 minutes"))
    }

    @Test func shortestIntervalRenewsAfterTwentyMinutes() throws {
        let clock = ManualWallClock()
        let source = try makeSource(clock: clock, refreshInterval: 20 * 60)
        let first = source.current()
        clock.advance(by: 20 * 60 - 1)
        #expect(source.current() == first)
        clock.advance(by: 1)
        #expect(source.current() != first)
        #expect(source.signedCount == 2)
    }

    @Test func concurrentCallersShareOneToken() async throws {
        let source = try makeSource(clock: ManualWallClock())
        let tokens = await withTaskGroup(of: String.self, returning: Set<String>.self) { group in
            for _ in 0..<1000 {
                group.addTask { source.current().jwt }
            }
            var seen = Set<String>()
            for await jwt in group { seen.insert(jwt) }
            return seen
        }
        #expect(tokens.count == 1)
        #expect(source.signedCount == 1)
    }

    @Test func renewReplacesTheRejectedCurrentToken() throws {
        let clock = ManualWallClock()
        let source = try makeSource(clock: clock)
        let first = source.current()
        clock.advance(by: 5)
        let renewed = source.renew(rejected: first.jwt)
        #expect(renewed != first)
        #expect(renewed.issuedAt == clock.now())
        #expect(source.current() == renewed)
        #expect(source.signedCount == 2)
    }

    @Test func renewWithAStaleRejectedTokenDoesNotSign() throws {
        let clock = ManualWallClock()
        let source = try makeSource(clock: clock)
        let first = source.current()
        let renewed = source.renew(rejected: first.jwt)
        #expect(source.signedCount == 2)
        // A second request that also got 403 for the first token arrives late.
        #expect(source.renew(rejected: first.jwt) == renewed)
        #expect(source.renew(rejected: "some.other.token") == renewed)
        #expect(source.signedCount == 2)
    }

    @Test func concurrentRejectionsOfOneTokenRenewOnce() async throws {
        let source = try makeSource(clock: ManualWallClock())
        let rejected = source.current().jwt
        let tokens = await withTaskGroup(of: String.self, returning: Set<String>.self) { group in
            for _ in 0..<200 {
                group.addTask { source.renew(rejected: rejected).jwt }
            }
            var seen = Set<String>()
            for await jwt in group { seen.insert(jwt) }
            return seen
        }
        #expect(tokens.count == 1)
        #expect(!tokens.contains(rejected))
        #expect(source.signedCount == 2)
    }

    @Test func renewBeforeAnyTokenSignsTheFirst() throws {
        let source = try makeSource(clock: ManualWallClock())
        let token = source.renew(rejected: "never.issued.here")
        #expect(source.signedCount == 1)
        #expect(source.current() == token)
    }

    @Test func signingsAreCounted() throws {
        let metrics = TestMetrics()
        let clock = ManualWallClock()
        let source = try ProviderTokenSource(
            key: key, keyID: "KEY1234567", teamID: "TEAM123456", clock: clock, metricsFactory: metrics
        )
        let first = source.current()
        _ = source.current()
        _ = source.renew(rejected: first.jwt)
        _ = source.renew(rejected: first.jwt)
        clock.advance(by: 50 * 60)
        _ = source.current()
        let counter = try metrics.expectCounter(
            ProviderTokenSource.signedCounterLabel, [("key_id", "KEY1234567"), ("team_id", "TEAM123456")]
        )
        #expect(counter.totalValue == 3)
        #expect(source.signedCount == 3)
    }
}
