import APNsCore
import Foundation
import Logging
import Metrics
import Synchronization

/// The one provider token for a (Key ID, Team ID), shared by every connection and request.
///
/// APNs answers `429 TooManyProviderTokenUpdates` when a connection sees a new token more often than
/// every 20 minutes, and `403 ExpiredProviderToken` once a token is an hour old. So a token is signed
/// only when there is none or the cached one is `refreshInterval` old, or through `renew(rejected:)`
/// after APNs rejected the current token as expired. Thread-safe; signing happens under a lock, so
/// concurrent callers never sign twice.
public final class ProviderTokenSource: Sendable {
    /// Refresh intervals APNs tolerates: at most every 20 minutes, at least every 60.
    public static let allowedRefreshIntervals: ClosedRange<TimeInterval> = (20 * 60)...(60 * 60)
    /// The counter of signed tokens (dimensions `key_id`, `team_id`).
    public static let signedCounterLabel = "livepush_provider_tokens_signed_total"
    /// The default refresh interval: 50 minutes.
    public static let defaultRefreshInterval: TimeInterval = 50 * 60

    /// The `kid` of every token.
    public let keyID: String
    /// The `iss` of every token.
    public let teamID: String
    /// How old the cached token may get before `current()` signs a new one.
    public let refreshInterval: TimeInterval

    private let key: APNsSigningKey
    private let clock: any WallClock
    private let logger: Logger
    /// Where the signed-token counter goes; the counter is made at the first signature, so that a
    /// keyring of many keys starts without registering a metric per key.
    private let metricsFactory: any MetricsFactory
    private let state = Mutex(State())

    private struct State {
        var token: ProviderToken?
        var signedCount = 0
        var signedCounter: Counter?
    }

    /// - Parameters:
    ///   - refreshInterval: seconds, within 20...60 minutes (default 50 minutes).
    ///   - clock: the time source for `iat` and token age.
    ///   - metricsFactory: where `livepush_provider_tokens_signed_total` goes; nil: the bootstrapped
    ///     `MetricsSystem`.
    /// - Throws: `ProviderTokenSourceError.refreshIntervalOutOfRange` outside 20...60 minutes.
    public init(
        key: APNsSigningKey,
        keyID: String,
        teamID: String,
        refreshInterval: TimeInterval = ProviderTokenSource.defaultRefreshInterval,
        clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "livepush.apns-auth"),
        metricsFactory: (any MetricsFactory)? = nil
    ) throws(ProviderTokenSourceError) {
        guard refreshInterval.isFinite, Self.allowedRefreshIntervals.contains(refreshInterval) else {
            throw .refreshIntervalOutOfRange(refreshInterval)
        }
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.refreshInterval = refreshInterval
        self.clock = clock
        self.logger = logger
        self.metricsFactory = metricsFactory ?? MetricsSystem.factory
    }

    /// The cached token, or a newly signed one when there is none or it is `refreshInterval` old.
    public func current() -> ProviderToken {
        state.withLock { state in
            let now = clock.now()
            if let token = state.token, now.timeIntervalSince(token.issuedAt) < refreshInterval {
                return token
            }
            return sign(now: now, state: &state, reason: state.token == nil ? "first use" : "refresh interval reached")
        }
    }

    /// Call after APNs answered `403 ExpiredProviderToken` for the token string `rejected`. If it is
    /// still the current token, a new one is signed and returned; if another caller already replaced
    /// it, the current token is returned, so concurrent rejections of one token renew it once.
    public func renew(rejected: String) -> ProviderToken {
        state.withLock { state in
            let now = clock.now()
            if let token = state.token, token.jwt == rejected {
                logger.notice(
                    "APNs rejected the provider token as expired; signing a new one",
                    metadata: [
                        "key_id": "\(keyID)", "team_id": "\(teamID)",
                        "rejected_token_age_s": "\(Int(now.timeIntervalSince(token.issuedAt)))",
                    ]
                )
                return sign(now: now, state: &state, reason: "rejected as expired")
            }
            if let token = state.token, now.timeIntervalSince(token.issuedAt) < refreshInterval {
                return token
            }
            return sign(now: now, state: &state, reason: state.token == nil ? "first use" : "refresh interval reached")
        }
    }

    /// How many tokens this source has signed.
    public var signedCount: Int { state.withLock { $0.signedCount } }

    private func sign(now: Date, state: inout State, reason: String) -> ProviderToken {
        let token = ProviderToken.sign(key: key, keyID: keyID, teamID: teamID, issuedAt: now)
        state.token = token
        state.signedCount += 1
        if state.signedCounter == nil {
            state.signedCounter = Counter(
                label: Self.signedCounterLabel, dimensions: [("key_id", keyID), ("team_id", teamID)], factory: metricsFactory)
        }
        state.signedCounter?.increment()
        logger.debug(
            "signed a provider token",
            metadata: [
                "key_id": "\(keyID)", "team_id": "\(teamID)",
                "iat": "\(Int64(token.issuedAt.timeIntervalSince1970))", "reason": "\(reason)",
            ]
        )
        return token
    }
}
