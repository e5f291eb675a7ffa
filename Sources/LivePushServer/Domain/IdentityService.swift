import APNsAuth
import APNsCore
import Foundation
import Logging
import PushStore

/// Issues the credentials apps act with: user tokens the backend asks for, and installation tokens for
/// apps without accounts; renews installation tokens and signs subjects out. The rules of what each may
/// do are ``AppActor``'s; whether a token still counts is ``APIKeyChecker``'s, from the store's
/// ``AppTokenStanding``.
struct IdentityService: Sendable {
    let key: AppTokenKey
    let store: any AppTokenStandingStore
    let lifetimes: TokenLifetimes
    let clock: any WallClock
    let logger: Logger

    /// The shortest and longest user-token lifetimes a backend may ask for.
    static let userTokenLifetimes: ClosedRange<TimeInterval> = 60...(7 * 86_400)

    /// A signed token acting for `userId` until `expiresAt` (`lifetime` seconds, else the configured
    /// default), minted by the stored backend key `keyId` (nil: a development key): revoking that key, or
    /// signing the user out, withdraws it. It grants the `groups` given (ids, or prefixes ending in `*`):
    /// the only groups the app may put the user's activities in (``GroupGrant``).
    func userToken(for userID: String, lifetime: TimeInterval?, groups: [String] = [], mintedBy keyID: UUID?) async throws(DomainError)
        -> (token: String, expiresAt: Date, groups: [String])
    {
        let granted = try GroupGrant.entries(groups)
        guard !userID.hasPrefix(AppToken.installationPrefix) else {
            throw .invalid(
                "userId", "reservedPrefix",
                "user ids may not start with '\(AppToken.installationPrefix)', which names installations; installations get their tokens from POST /v1/installations"
            )
        }
        let seconds = lifetime ?? lifetimes.user
        guard Self.userTokenLifetimes.contains(seconds) else {
            throw .invalid(
                "ttlSeconds", "range", "is \(Int(seconds)); a user token lives 60 to \(Int(Self.userTokenLifetimes.upperBound)) seconds (7 days)")
        }
        let issued = try await mint(subject: userID, kind: .user, lifetime: seconds, keyID: keyID, groups: granted)
        logger.debug("user token issued", metadata: ["userId": "\(userID)", "expiresAt": "\(issued.expiresAt.timeIntervalSince1970)"])
        return (issued.token, issued.expiresAt, granted)
    }

    /// A new installation: a random id (`inst_` and 22 base64url characters) and a token that acts for it
    /// for the configured installation-token lifetime. Only app keys open installations (an app token
    /// already acts for someone); `keyId` is the stored app key's id (nil: a development key).
    func openInstallation(as actor: AppActor, keyID: UUID?) async throws(DomainError)
        -> (installationID: String, token: String, expiresAt: Date)
    {
        if case .user = actor {
            throw .forbidden(
                "Authorization", "appToken", "installations are opened with the app key; this credential already acts for one user or installation")
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let id = AppToken.installationPrefix + Base64URL.encode(bytes)
        let issued = try await mint(subject: id, kind: .installation, lifetime: lifetimes.installation, keyID: keyID)
        logger.info("installation opened", metadata: ["installationId": "\(id)"])
        return (id, issued.token, issued.expiresAt)
    }

    /// A fresh token for the installation whose own, still valid, token made the request: same
    /// installation, same app key, a new expiry. Every earlier token of the installation, the one that
    /// asked included, stops working at once (401 `revoked`): a stolen token cannot be renewed for ever
    /// alongside the app's. Any other credential gets the answer of a missing one.
    func renewInstallation(_ installationID: String, as principal: Principal) async throws(DomainError)
        -> (token: String, expiresAt: Date)
    {
        guard case .appToken(.installation, let subject, let keyID) = principal.credential, subject == installationID else {
            throw .notFound(
                "installationId",
                "no installation '\(installationID)' is open for this credential; renew with the installation's own token, or open a new installation with the app key"
            )
        }
        let now = clock.now()
        _ = try await stored { () async throws(PushStoreError) in try await store.retireAppTokens(subject: installationID, at: now) }
        let issued = try await mint(subject: installationID, kind: .installation, lifetime: lifetimes.installation, keyID: keyID)
        logger.info("installation token renewed", metadata: ["installationId": "\(installationID)"])
        return issued
    }

    /// Withdraws every app token of `subject` (a user, or an installation) issued so far, and releases
    /// its push-to-start tokens; tokens minted afterwards work.
    func signOut(_ subject: String) async throws(DomainError) -> AppTokenWithdrawal {
        let now = clock.now()
        let withdrawal = try await stored { () async throws(PushStoreError) in try await store.withdrawAppTokens(subject: subject, at: now) }
        logger.info(
            "app tokens withdrawn",
            metadata: [
                "subject": "\(subject)", "generation": "\(withdrawal.generation)",
                "pushToStartTokensReleased": "\(withdrawal.releasedPushToStartTokens)",
            ])
        return withdrawal
    }

    /// Signs a token of the subject's current generation.
    private func mint(subject: String, kind: AppToken.Kind, lifetime: TimeInterval, keyID: UUID?, groups: [String] = []) async throws(DomainError)
        -> (token: String, expiresAt: Date)
    {
        let now = Int64(clock.now().timeIntervalSince1970)
        let expires = now + Int64(lifetime)
        let codec = try await stored { () async throws(PushStoreError) in try await key.codec() }
        let standing = try await stored { () async throws(PushStoreError) in try await store.appTokenStanding(subject: subject, keyID: nil) }
        let token = codec.sign(
            AppToken(
                subject: subject, kind: kind, issuedAt: now, expiresAt: expires, keyID: keyID, generation: standing.generation,
                groups: groups.isEmpty ? nil : groups))
        return (token, Date(timeIntervalSince1970: TimeInterval(expires)))
    }
}
