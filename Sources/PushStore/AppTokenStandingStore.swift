import Foundation

/// What decides whether an app token the server signed still counts: the key that minted it (a backend
/// key for a user token, an app key for an installation token) must not be revoked, and the token's
/// generation must not be below its subject's (a backend signs a user out by raising it).
package protocol AppTokenStandingStore: Sendable {
    /// The standing of tokens for `subject` minted by the stored key `keyId` (nil: a development key),
    /// read in one statement.
    func appTokenStanding(subject: String, keyID: UUID?) async throws(PushStoreError) -> AppTokenStanding

    /// Withdraws every app token of `subject` issued so far: raises its generation and returns the new
    /// one (tokens minted from now on carry it). Also releases the subject's push-to-start tokens (the
    /// device may pass to someone else), in the same transaction.
    func withdrawAppTokens(subject: String, at: Date) async throws(PushStoreError) -> AppTokenWithdrawal

    /// Retires every app token of `subject` issued so far, as a renewal does: raises its generation and
    /// returns the new one, releasing nothing else.
    func retireAppTokens(subject: String, at: Date) async throws(PushStoreError) -> Int
}

/// The current standing of a subject's app tokens (see ``AppTokenStandingStore``).
package struct AppTokenStanding: Sendable, Hashable {
    /// Tokens minted with a lower generation are refused; 0 until the subject is first signed out.
    package var generation: Int
    /// Whether the minting key is stored and not revoked; nil when no stored key was asked about.
    package var keyActive: Bool?
}

/// What a sign-out did.
package struct AppTokenWithdrawal: Sendable, Hashable {
    /// The generation new tokens carry; every token below it is refused.
    package var generation: Int
    /// How many push-to-start tokens of the subject were released.
    package var releasedPushToStartTokens: Int
}
