import Foundation

/// What an app token says: whom it acts for and until when. Minted by the server, never by the app.
///
/// Two kinds: a *user token* the backend mints for one of its users (`POST /v1/users/{userId}/app-tokens`,
/// short-lived), and an *installation token* an app without accounts gets once (`POST /v1/installations`,
/// with the app key it ships), which acts for a fresh installation id that the backend addresses like
/// a user id.
package struct AppToken: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Hashable, Codable {
        case user
        case installation
    }

    /// The user (or installation) id the token acts for: the JWT `sub`.
    package var subject: String
    package var kind: Kind
    /// Seconds since 1970: the JWT `iat`.
    package var issuedAt: Int64
    /// Seconds since 1970: the JWT `exp`; nil for installation tokens, which do not expire.
    package var expiresAt: Int64?

    /// Who issues every token: the JWT `iss`.
    package static let issuer = "livepush"

    package init(subject: String, kind: Kind, issuedAt: Int64, expiresAt: Int64?) {
        self.subject = subject
        self.kind = kind
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// The JWT claims: `iss`, `sub`, `typ` (the kind), `iat` and, for user tokens, `exp`.
    struct Claims: Codable {
        var iss: String
        var sub: String
        var typ: AppToken.Kind
        var iat: Int64
        var exp: Int64?
    }
}
