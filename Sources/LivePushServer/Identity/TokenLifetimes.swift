import Foundation

/// The settings `IdentityService` reads: how long the tokens it issues live when a request does not say.
struct TokenLifetimes: Sendable {
    /// A user token's, when the backend gives no `ttlSeconds` (60 s to 7 days).
    var user: TimeInterval
    /// An installation token's (1 hour to 90 days); the app renews it before then.
    var installation: TimeInterval
}
