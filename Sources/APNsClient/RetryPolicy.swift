import APNsCore
import Foundation

/// When and how long to wait before trying a push again.
public struct APNsRetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maximumAttempts: Int
    /// The delay before the first backed-off retry; it doubles each time, up to `maximumDelay`.
    public var baseDelay: Double
    public var maximumDelay: Double
    /// Full jitter: the actual delay is uniform in [delay * (1 - jitter), delay].
    public var jitter: Double
    /// Which failures the policy retries.
    public var scope: Scope

    /// Which failures a policy retries.
    public enum Scope: Sendable, Hashable {
        /// Everything APNs' reasons allow: 429 and 5xx answers and transport failures after a back-off,
        /// unprocessed requests and connection-level reasons at once on a new connection, an expired
        /// provider token once after renewing it. For callers without a schedule of their own.
        case backingOff
        /// Only what one attempt absorbs itself, without ever waiting: a request the connection lost
        /// before answering it (GOAWAY, a closed connection; certainly not processed) or that APNs
        /// refused for a reason about the connection (`Shutdown`, `IdleTimeout`, `UnrelatedKeyIdInToken`)
        /// goes again at once on a new connection, and `ExpiredProviderToken` renews the token and goes
        /// again once (a credential refresh, which a later try could not do: it would send the same
        /// token). Anything that calls for waiting (429, 5xx, timeouts, a connection lost after the
        /// request may have been processed, a failed connect) is final for the call: the caller's own
        /// schedule (the server's outbox) backs off.
        case reconnectOnly
    }

    public init(maximumAttempts: Int = 5, baseDelay: Double = 0.5, maximumDelay: Double = 60, jitter: Double = 0.5) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(baseDelay, maximumDelay)
        self.jitter = min(max(jitter, 0), 1)
        self.scope = .backingOff
    }

    /// No retries at all.
    public static let none = APNsRetryPolicy(maximumAttempts: 1)

    /// Never backs off: at most `maximumAttempts` sends (the first included), the others at once on a new
    /// connection (see `Scope.reconnectOnly`). The policy of a client whose caller backs off itself.
    public static func reconnectOnly(maximumAttempts: Int = 3) -> APNsRetryPolicy {
        var policy = APNsRetryPolicy(maximumAttempts: maximumAttempts, baseDelay: 0, maximumDelay: 0, jitter: 0)
        policy.scope = .reconnectOnly
        return policy
    }

    /// What happened on one attempt.
    public enum AttemptResult: Sendable {
        case answered(APNsResponse)
        case failed(APNsClientError)
    }

    /// What to do next.
    public enum Decision: Sendable, Equatable {
        /// Done: the answer (or failure) is final.
        case stop
        /// Sign a new provider token and retry at once.
        case retryWithNewProviderToken
        /// Retry after this many seconds (0: at once), on a fresh connection when `newConnection`.
        case retry(after: Double, newConnection: Bool)
    }

    /// Decides after attempt number `attempt` (1-based). `tokenRenewed` says whether this push already
    /// renewed the provider token once. `deadline` is the push's expiration, if any: no retry is
    /// scheduled past it. `random` is in 0..<1 (injectable for tests).
    public func decide(
        after result: AttemptResult,
        attempt: Int,
        tokenRenewed: Bool,
        now: Date,
        deadline: Date?,
        random: Double
    ) -> Decision {
        guard attempt < maximumAttempts else { return .stop }
        let decision: Decision
        switch result {
        case .answered(let response):
            guard !response.isSuccess, let reason = response.reason else { return .stop }
            switch reason.advice {
            case .neverRetry, .fixRequest:
                return .stop
            case .retryWithNewProviderToken:
                return tokenRenewed ? .stop : .retryWithNewProviderToken
            case .retryOnNewConnection:
                decision = .retry(after: 0, newConnection: true)
            case .retryWithBackoff:
                if scope == .reconnectOnly { return .stop }
                decision = .retry(after: backoff(attempt: attempt, random: random), newConnection: false)
            }
        case .failed(let error) where scope == .reconnectOnly:
            // Only a request the connection lost unprocessed goes again, at once; the rest waits for the caller.
            guard error.isLostConnection, error.certainlyNotProcessed else { return .stop }
            decision = .retry(after: 0, newConnection: true)
        case .failed(let error):
            guard error.isRetryable else { return .stop }
            // A request the server certainly did not process goes again at once on a new connection;
            // anything else (timeouts, lost connections) backs off.
            let delay = error.certainlyNotProcessed && attempt == 1 ? 0 : backoff(attempt: attempt, random: random)
            decision = .retry(after: delay, newConnection: true)
        }
        if case .retry(let delay, _) = decision, let deadline, now.addingTimeInterval(delay) >= deadline {
            return .stop
        }
        return decision
    }

    /// The back-off before retry number `attempt` (1-based): base * 2^(attempt-1), capped, with jitter.
    public func backoff(attempt: Int, random: Double) -> Double {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        let delay = min(maximumDelay, baseDelay * pow(2, exponent))
        return delay * (1 - jitter * min(max(random, 0), 1))
    }
}
