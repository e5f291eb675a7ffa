import APNsAuth
import APNsCore
import Foundation

/// The provider-token state of one connection: verified tokens (each JWT string is verified once), the
/// token currently in use and when it last changed, and the team and key the first accepted push bound.
/// Lives on the connection's event loop.
struct ConnectionAuthentication {
    /// A provider token whose signature verified with a trusted key.
    struct Verified {
        var token: DecodedProviderToken
        var key: TrustedKey
    }

    private var cache: [String: Verified] = [:]
    private static let cacheLimit = 16
    private var currentJWT: String?
    private var changes: [Date] = []
    private(set) var boundTeam: String?
    private(set) var boundKey: TrustedKey?

    /// Authenticates the `authorization` header of one request (step 4 of `PushRequestChecks`):
    /// MissingProviderToken → InvalidProviderToken (scheme, JWT shape, unknown key, team, signature) →
    /// ExpiredProviderToken → future `iat` → wrong-environment key → team bound to the connection →
    /// key unrelated to the bound key → TooManyProviderTokenUpdates.
    mutating func authenticate(
        authorization: String?, environment: APNsEnvironment, now: Date,
        keys: TrustedKeys, configuration: EndpointConfiguration
    ) throws(Rejection) -> Verified {
        guard let authorization, !authorization.isEmpty else { throw Rejection(.missingProviderToken) }
        let jwt = try Self.bearerToken(authorization, caseInsensitive: configuration.bearerCaseInsensitive)
        let verified = try verify(jwt, keys: keys)

        let age = now.timeIntervalSince(verified.token.issuedAt)
        if age > configuration.providerTokenLifetime { throw Rejection(.expiredProviderToken) }
        if let tolerance = configuration.futureIssuedAtTolerance, -age > tolerance {
            throw Rejection(configuration.futureIssuedAtReason)
        }
        if !verified.key.allows(environment: environment) {
            throw Rejection(status: 403, reason: configuration.badEnvironmentKeyReason)
        }
        if let boundTeam, boundTeam != verified.key.teamID { throw Rejection(configuration.teamMismatchReason) }
        if let boundKey, boundKey.keyID != verified.key.keyID {
            let bothTeamScoped = boundKey.topics == nil && verified.key.topics == nil
            if !bothTeamScoped { throw Rejection(.unrelatedKeyIdInToken) }
        }
        if let currentJWT, currentJWT != jwt {
            let windowStart = now.addingTimeInterval(-configuration.providerTokenUpdateWindow)
            changes.removeAll { $0 <= windowStart }
            if !changes.isEmpty { throw Rejection(.tooManyProviderTokenUpdates) }
            changes.append(now)
        }
        currentJWT = jwt
        return verified
    }

    /// Binds the connection to the team and key of its first accepted push.
    mutating func bind(_ verified: Verified) {
        if boundTeam == nil { boundTeam = verified.key.teamID }
        if boundKey == nil { boundKey = verified.key }
    }

    private mutating func verify(_ jwt: String, keys: TrustedKeys) throws(Rejection) -> Verified {
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
        let verified = Verified(token: decoded, key: key)
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[jwt] = verified
        return verified
    }

    /// The JWT of `bearer <JWT>`; any other scheme or an empty token is refused.
    static func bearerToken(_ authorization: String, caseInsensitive: Bool) throws(Rejection) -> String {
        let utf8 = authorization.utf8
        guard utf8.count > 7 else {
            // "bearer" or "bearer " alone: a missing token.
            let scheme = authorization.trimmingCharacters(in: .whitespaces)
            if scheme == "bearer" || (caseInsensitive && scheme.lowercased() == "bearer") {
                throw Rejection(.missingProviderToken)
            }
            throw Rejection(.invalidProviderToken)
        }
        let scheme = authorization.prefix(7)
        let matches = caseInsensitive ? scheme.lowercased() == "bearer " : scheme == "bearer "
        guard matches else { throw Rejection(.invalidProviderToken) }
        let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { throw Rejection(.missingProviderToken) }
        return token
    }
}
