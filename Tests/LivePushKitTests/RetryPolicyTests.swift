import Testing

@testable import LivePushKit

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(60), multiplier: 2, jitter: 0.5)

    @Test func theWaitDoublesUpToTheMaximum() {
        #expect(policy.delay(afterFailures: 1, random: 0) == .seconds(1))
        #expect(policy.delay(afterFailures: 2, random: 0) == .seconds(2))
        #expect(policy.delay(afterFailures: 4, random: 0) == .seconds(8))
        #expect(policy.delay(afterFailures: 30, random: 0) == .seconds(60))
    }

    @Test func jitterTakesOffAtMostItsShare() {
        #expect(policy.delay(afterFailures: 3, random: 0.999_999) > .seconds(2))
        #expect(policy.delay(afterFailures: 3, random: 0.5) == .seconds(3))
        #expect(policy.delay(afterFailures: 3, random: 0.999_999) <= .seconds(4))
    }

    @Test func retryAfterIsTheLeastWait() {
        #expect(policy.delay(afterFailures: 1, retryAfter: .seconds(30), random: 0) == .seconds(30))
        #expect(policy.delay(afterFailures: 10, retryAfter: .seconds(1), random: 0) == .seconds(60))
        // A Retry-After above the maximum is honoured whole.
        #expect(policy.delay(afterFailures: 1, retryAfter: .seconds(120), random: 0) == .seconds(120))
    }
}
