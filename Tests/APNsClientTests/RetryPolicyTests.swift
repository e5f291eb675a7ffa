import APNsClient
import APNsCore
import Foundation
import Testing

@Suite struct RetryPolicyTests {
    let policy = APNsRetryPolicy(maximumAttempts: 5, baseDelay: 1, maximumDelay: 8, jitter: 0.5)
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func answer(_ reason: APNsReason) -> APNsRetryPolicy.AttemptResult {
        .answered(APNsResponse(status: reason.status, reason: reason))
    }

    @Test func successStops() {
        #expect(
            policy.decide(after: .answered(APNsResponse(status: 200)), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0) == .stop)
    }

    /// The decision for every reason this version knows.
    @Test(arguments: APNsReason.known)
    func decisionForEveryReason(_ reason: APNsReason) {
        let decision = policy.decide(after: answer(reason), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0)
        switch reason {
        case .expiredProviderToken:
            #expect(decision == .retryWithNewProviderToken)
        case .tooManyRequests, .tooManyProviderTokenUpdates, .internalServerError, .serviceUnavailable:
            #expect(decision == .retry(after: 1, newConnection: false))
        case .shutdown, .idleTimeout, .unrelatedKeyIDInToken:
            #expect(decision == .retry(after: 0, newConnection: true))
        default:
            #expect(decision == .stop, "\(reason) must not be retried")
        }
    }

    @Test func expiredProviderTokenRenewsOnlyOnce() {
        #expect(policy.decide(after: answer(.expiredProviderToken), attempt: 2, tokenRenewed: true, now: now, deadline: nil, random: 0) == .stop)
    }

    @Test func backoffDoublesAndIsCapped() {
        #expect(policy.backoff(attempt: 1, random: 0) == 1)
        #expect(policy.backoff(attempt: 2, random: 0) == 2)
        #expect(policy.backoff(attempt: 3, random: 0) == 4)
        #expect(policy.backoff(attempt: 4, random: 0) == 8)
        #expect(policy.backoff(attempt: 9, random: 0) == 8)
    }

    @Test func jitterShortensTheDelayWithinItsShare() {
        #expect(policy.backoff(attempt: 2, random: 1) == 1)
        #expect(policy.backoff(attempt: 2, random: 0.5) == 1.5)
    }

    @Test func attemptsAreBounded() {
        #expect(policy.decide(after: answer(.serviceUnavailable), attempt: 5, tokenRenewed: false, now: now, deadline: nil, random: 0) == .stop)
        #expect(policy.decide(after: answer(.serviceUnavailable), attempt: 4, tokenRenewed: false, now: now, deadline: nil, random: 0) != .stop)
    }

    @Test func noRetryPastThePushExpiration() {
        let soon = now.addingTimeInterval(1.5)
        #expect(
            policy.decide(after: answer(.tooManyRequests), attempt: 1, tokenRenewed: false, now: now, deadline: soon, random: 0)
                == .retry(after: 1, newConnection: false))
        #expect(policy.decide(after: answer(.tooManyRequests), attempt: 2, tokenRenewed: false, now: now, deadline: soon, random: 0) == .stop)
    }

    @Test func unprocessedRequestsRetryAtOnceOnANewConnection() {
        let refused = APNsRetryPolicy.AttemptResult.failed(.goAway(reason: .shutdown, processed: false))
        #expect(
            policy.decide(after: refused, attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0)
                == .retry(after: 0, newConnection: true))
        let timedOut = APNsRetryPolicy.AttemptResult.failed(.timedOut(seconds: 5))
        #expect(
            policy.decide(after: timedOut, attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0)
                == .retry(after: 1, newConnection: true))
    }

    @Test func tlsAndProtocolFailuresAreFinal() {
        #expect(
            policy.decide(
                after: .failed(.tlsFailed(endpoint: "x", detail: "untrusted")), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0)
                == .stop)
        #expect(policy.decide(after: .failed(.protocolError("x")), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0) == .stop)
    }

    // MARK: - Reconnect only (the server's client: the outbox backs off)

    let reconnectOnly = APNsRetryPolicy.reconnectOnly()

    @Test(arguments: APNsReason.known)
    func reconnectOnlyNeverBacksOffOnAnAnswer(_ reason: APNsReason) {
        let decision = reconnectOnly.decide(after: answer(reason), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0)
        switch reason {
        case .expiredProviderToken:
            #expect(decision == .retryWithNewProviderToken)
        case .shutdown, .idleTimeout, .unrelatedKeyIDInToken:
            #expect(decision == .retry(after: 0, newConnection: true), "a reason about the connection: at once, on a new one")
        default:
            #expect(decision == .stop, "\(reason) is the outbox's to retry, one attempt here")
        }
    }

    @Test func reconnectOnlyStopsAt503And429() {
        for reason in [APNsReason.serviceUnavailable, .tooManyRequests, .internalServerError, .tooManyProviderTokenUpdates] {
            #expect(reconnectOnly.decide(after: answer(reason), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0) == .stop)
        }
    }

    @Test func reconnectOnlyResendsAtOnceWhatALostConnectionDidNotProcess() {
        for error in [
            APNsClientError.goAway(reason: .shutdown, processed: false), .goAway(reason: nil, processed: false),
            .connectionClosed(processed: false, detail: "reset"),
        ] {
            #expect(
                reconnectOnly.decide(after: .failed(error), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0.7)
                    == .retry(after: 0, newConnection: true), "\(error)")
            #expect(
                reconnectOnly.decide(after: .failed(error), attempt: 2, tokenRenewed: false, now: now, deadline: nil, random: 0.7)
                    == .retry(after: 0, newConnection: true), "\(error)")
            #expect(
                reconnectOnly.decide(after: .failed(error), attempt: 3, tokenRenewed: false, now: now, deadline: nil, random: 0.7)
                    == .stop, "at most 2 re-sends")
        }
    }

    @Test func reconnectOnlyLeavesEverythingThatNeedsWaitingToTheCaller() {
        for error in [
            APNsClientError.timedOut(seconds: 30), .connectionClosed(processed: true, detail: "reset"),
            .goAway(reason: nil, processed: true), .connectFailed(endpoint: "x", detail: "refused"),
            .tlsFailed(endpoint: "x", detail: "untrusted"), .protocolError("x"), .shutDown,
        ] {
            #expect(
                reconnectOnly.decide(after: .failed(error), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0) == .stop, "\(error)")
        }
    }

    @Test func reconnectOnlyRenewsAnExpiredProviderTokenOnce() {
        #expect(
            reconnectOnly.decide(after: answer(.expiredProviderToken), attempt: 2, tokenRenewed: true, now: now, deadline: nil, random: 0) == .stop)
    }

    @Test func theDefaultPolicyStillBacksOff() {
        #expect(APNsRetryPolicy().scope == .backingOff)
        #expect(
            APNsRetryPolicy().decide(after: answer(.serviceUnavailable), attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0)
                == .retry(after: 0.5, newConnection: false))
    }
}
