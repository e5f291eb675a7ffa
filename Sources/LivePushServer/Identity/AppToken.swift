import Foundation

/// What an app token says: whom it acts for and until when. Minted by the server, never by the app.
///
/// Two kinds: a *user token* the backend mints for one of its users (`POST /v1/users/{userId}/app-tokens`,
/// short-lived), and an *installation token* an app without accounts gets once (`POST /v1/installations`,
/// with the app key it ships), which acts for a fresh installation id that the backend addresses like
/// a user id.
package struct AppToken: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case subject, kind, issuedAt, expiresAt
        case keyID = "keyId"
        case generation
        case groups
    }

    package enum Kind: String, Sendable, Hashable, Codable {
        case user
        case installation
    }

    /// The user (or installation) id the token acts for: the JWT `sub`.
    package var subject: String
    package var kind: Kind
    /// Seconds since 1970: the JWT `iat`.
    package var issuedAt: Int64
    /// Seconds since 1970: the JWT `exp`. Installation tokens minted before they expired have none and
    /// are refused (see ``AppTokenCodec``).
    package var expiresAt: Int64?
    /// The stored API key that minted it (a backend key for a user token, the app key that opened an
    /// installation): revoking that key withdraws the token. Nil for development keys.
    package var keyID: UUID?
    /// The subject's app-token generation when it was minted: a sign-out raises the subject's generation
    /// and every token below it is refused.
    package var generation: Int
    /// The groups a user token may put activities in: group ids, or prefixes ending in `*` (the backend
    /// grants them when it mints the token). Nil or empty: none (installation tokens never have any).
    package var groups: [String]?

    /// Who issues every token: the JWT `iss`.
    package static let issuer = "livepush"

    package init(
        subject: String, kind: Kind, issuedAt: Int64, expiresAt: Int64?, keyID: UUID? = nil, generation: Int = 0, groups: [String]? = nil
    ) {
        self.subject = subject
        self.kind = kind
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.keyID = keyID
        self.generation = generation
        self.groups = groups
    }

    /// The prefix of installation ids; user ids may not start with it, so that a user token can never
    /// act for an installation.
    package static let installationPrefix = "inst_"

    /// The JWT claims: `iss`, `sub`, `typ` (the kind), `iat`, `exp`, and `key` (the minting key's id),
    /// `gen` (the subject's generation) and `grp` (the groups granted) when they apply.
    struct Claims: Codable {
        var iss: String
        var sub: String
        var typ: AppToken.Kind
        var iat: Int64
        var exp: Int64?
        var key: String?
        var gen: Int?
        var grp: [String]?
    }
}
