import APNsAuth
import APNsCore
import Foundation

/// The authentication state of one connection: its client certificate, if it presented one (then the
/// certificate authenticates every request, see `ClientCertificate`), else the provider tokens: verified
/// tokens (each JWT string is verified once), the token currently in use and when it last changed, and
/// the team and key the first accepted push bound. Lives on the connection's event loop.
struct ConnectionAuthentication {
    /// A provider token whose signature verified with a trusted key.
    struct VerifiedToken {
        var token: DecodedProviderToken
        var key: TrustedKey
    }

    /// What authenticated a request.
    enum Verified {
        case token(VerifiedToken)
        case certificate(ProviderCertificateIdentity)
    }

    /// The client certificate verified during the TLS handshake; nil: token authentication.
    let clientCertificate: ClientCertificate?
    private var cache: [String: VerifiedToken] = [:]
    private static let cacheLimit = 16
    private var currentJWT: String?
    private var changes: [Date] = []
    private(set) var boundTeam: String?
    private(set) var boundKey: TrustedKey?

    init(clientCertificate: ClientCertificate? = nil) {
        self.clientCertificate = clientCertificate
    }

    /// Authenticates one request (step 4 of `PushRequestChecks`). On a connection with a client
    /// certificate: `ClientCertificate.authenticate` (`authorization` is ignored). Otherwise the
    /// `authorization` header: MissingProviderToken → InvalidProviderToken (scheme, JWT shape, unknown
    /// key, team, signature) → ExpiredProviderToken → future `iat` → wrong-environment key → team bound to
    /// the connection → key other than the bound key or its related key (two team-scoped keys share a
    /// connection only with `teamKeysShareConnections`) → TooManyProviderTokenUpdates.
    mutating func authenticate(
        authorization: String?, environment: APNsEnvironment, now: Date,
        keys: TrustedKeys, configuration: EndpointConfiguration
    ) throws(Rejection) -> Verified {
        if let clientCertificate { return .certificate(try clientCertificate.authenticate(environment: environment)) }
        guard let authorization, !authorization.isEmpty else { throw Rejection(.missingProviderToken) }
        let jwt = try Self.bearerToken(authorization, caseInsensitive: configuration.bearerCaseInsensitive)
        let verified = try verify(jwt, keys: keys)
        if verified.token.issuedAtIsString, !configuration.acceptStringIssuedAt {
            throw Rejection(.invalidProviderToken)
        }

        let age = now.timeIntervalSince(verified.token.issuedAt)
        if age > configuration.providerTokenLifetime { throw Rejection(.expiredProviderToken) }
        if let tolerance = configuration.futureIssuedAtTolerance, -age > tolerance {
            throw Rejection(configuration.futureIssuedAtReason)
        }
        if !verified.key.allows(environment: environment) {
            throw Rejection(status: 403, reason: configuration.badEnvironmentKeyReason)
        }
        if let boundTeam, boundTeam != verified.key.teamID { throw Rejection(configuration.teamMismatchReason) }
        if let boundKey, !boundKey.isRelated(to: verified.key) {
            let bothTeamScoped = boundKey.isTeamScoped && verified.key.isTeamScoped
            if !(bothTeamScoped && configuration.teamKeysShareConnections) { throw Rejection(.unrelatedKeyIDInToken) }
        }
        if let currentJWT, currentJWT != jwt {
            let windowStart = now.addingTimeInterval(-configuration.providerTokenUpdateWindow)
            changes.removeAll { $0 <= windowStart }
            if !changes.isEmpty { throw Rejection(.tooManyProviderTokenUpdates) }
            changes.append(now)
        }
        currentJWT = jwt
        return .token(verified)
    }

    /// Binds a token connection to the team and key of its first accepted push.
    mutating func bind(_ verified: Verified) {
        guard case .token(let verified) = verified else { return }
        if boundTeam == nil { boundTeam = verified.key.teamID }
        if boundKey == nil { boundKey = verified.key }
    }

    private mutating func verify(_ jwt: String, keys: TrustedKeys) throws(Rejection) -> VerifiedToken {
        if let cached = cache[jwt] {
            // Still trusted with the same public key (keys can be replaced or removed at run time)?
            if let key = keys.lookup(keyID: cached.key.keyID), key == cached.key { return cached }
            cache[jwt] = nil
        }
        let decoded: DecodedProviderToken
        do {
            decoded = try ProviderTokenVerifier.decode(jwt)
        } catch {
            throw Rejection(.invalidProviderToken)
        }
        guard let key = keys.lookup(keyID: decoded.keyID), key.teamID == decoded.teamID else {
            throw Rejection(.invalidProviderToken)
        }
        do {
            _ = try ProviderTokenVerifier.verify(jwt, publicKey: key.publicKey)
        } catch {
            throw Rejection(.invalidProviderToken)
        }
        let verified = VerifiedToken(token: decoded, key: key)
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[jwt] = verified
        return verified
    }

    /// The JWT of `bearer <JWT>`; any other scheme or an empty token is refused. Works on the UTF-8
    /// bytes: it runs for every request.
    static func bearerToken(_ authorization: String, caseInsensitive: Bool) throws(Rejection) -> String {
        let bytes = authorization.utf8
        let scheme = Array("bearer".utf8)
        var index = bytes.startIndex
        for expected in scheme {
            guard index != bytes.endIndex else { throw Rejection(.invalidProviderToken) }
            var byte = bytes[index]
            if caseInsensitive, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
            guard byte == expected else { throw Rejection(.invalidProviderToken) }
            index = bytes.index(after: index)
        }
        // "bearer" alone, or followed only by spaces: no token.
        guard index != bytes.endIndex else { throw Rejection(.missingProviderToken) }
        guard bytes[index] == UInt8(ascii: " ") else { throw Rejection(.invalidProviderToken) }
        var start = index
        while start != bytes.endIndex, bytes[start] == UInt8(ascii: " ") { start = bytes.index(after: start) }
        var end = bytes.endIndex
        while end > start, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
        guard start != end else { throw Rejection(.missingProviderToken) }
        if start == bytes.index(after: index), end == bytes.endIndex {
            return String(authorization[start...])
        }
        return String(authorization[start..<end])
    }
}
