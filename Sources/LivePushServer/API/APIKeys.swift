import APNsAuth
import APNsCore
import Crypto
import Foundation
import Hummingbird
import HummingbirdAuth
import PushStore

/// API keys: generation, hashing and checking a bearer token against the development keys and the stored
/// keys (read through `CredentialService`).
package enum APIKeys {
    /// A new random key: `lp_<scope>_` and 43 base64url characters (256 bits).
    package static func generate(scope: APIKeyScope) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "lp_\(scope.rawValue)_\(Base64URL.encode(bytes))"
    }

    /// The SHA-256 of a key as 64 lowercase hex digits: what the store keeps.
    package static func hash(_ key: String) -> String {
        // Every request with a key hashes it: one buffer, no string per byte.
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(key.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

/// Finds the principal of `Authorization: Bearer <credential>`: a development key, a stored key, or an
/// app token this server signed.
struct APIKeyChecker: Sendable {
    let credentials: CredentialService
    /// Hashes of the development keys, with their scope.
    let developmentKeys: [String: APIKeyScope]
    let tokens: AppTokenKey
    let clock: any WallClock
    /// The database the stored keys are read from, as `--database` names it: an operator key it does not
    /// know is refused with the command that creates one there (the console's sign-in shows it).
    let database: String?

    init(
        credentials: CredentialService, appKeys: [String], backendKeys: [String], operatorKeys: [String] = [], tokens: AppTokenKey,
        clock: any WallClock, database: String? = nil
    ) {
        self.credentials = credentials
        self.database = database
        var keys: [String: APIKeyScope] = [:]
        for key in appKeys { keys[APIKeys.hash(key)] = .app }
        for key in backendKeys { keys[APIKeys.hash(key)] = .backend }
        for key in operatorKeys { keys[APIKeys.hash(key)] = .operator }
        developmentKeys = keys
        self.tokens = tokens
        self.clock = clock
    }

    /// The request's principal when it holds an active credential of `scope`; throws 401 without a known
    /// active one and 403 for one of another scope.
    func principal(authorization: String?, requiring scope: APIKeyScope) async throws(APIError) -> Principal {
        let field = "Authorization"
        let what = scope == .app ? "<user token>" : "<API key>"
        guard let authorization, !authorization.isEmpty else {
            let how =
                scope == .app
                ? "apps get a user token from their backend (POST /v1/users/{userId}/app-tokens) or an installation token (POST /v1/installations)"
                : "create keys with `livepush keys create --scope \(scope.rawValue)`"
            throw APIError(.unauthorized, field: field, rule: "required", "send 'Authorization: Bearer \(what)'; \(how)")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError(.unauthorized, field: field, rule: "bearer", "the Authorization header must be 'Bearer \(what)'")
        }
        let credential = String(parts[1]).trimmingCharacters(in: .whitespaces)
        let found: Principal
        do {
            found =
                credential.hasPrefix("lp_") || !credential.contains(".")
                ? try await keyPrincipal(credential) : try await tokenPrincipal(credential)
        } catch  where scope == .operator && error.rule == "apiKey" {
            throw APIError(.unauthorized, field: field, rule: "apiKey", unknownOperatorKey)
        }
        guard found.scope == scope else {
            let allowed: String
            switch scope {
            case .app: allowed = "app routes take a user or installation token (or an app key, for POST /v1/installations)"
            case .backend: allowed = "backend routes take a backend key; user tokens act only on the app routes"
            case .operator: allowed = "operator routes (the console) take an operator key: `livepush keys create --scope operator`"
            }
            throw APIError(
                .forbidden, field: field, rule: "scope",
                "this route needs scope \(scope.rawValue) but the credential has scope \(found.scope.rawValue); \(allowed)")
        }
        return found
    }

    /// An unknown operator key, most often made on another database than the server's (say, the default
    /// livepush.sqlite beside a server started with --database dev.sqlite).
    private var unknownOperatorKey: String {
        guard let database else { return "the API key is unknown or revoked; create an operator key on this server's database" }
        let quoted = database.contains(" ") ? "'\(database)'" : database
        return "the API key is unknown or revoked on this server's database, \(database): create an operator key there with "
            + "`livepush keys create --scope operator --name NAME --database \(quoted)`"
    }

    private func keyPrincipal(_ key: String) async throws(APIError) -> Principal {
        let hash = APIKeys.hash(key)
        if let development = developmentKeys[hash] {
            return Principal(scope: development, credential: .developmentKey)
        }
        let record: APIKeyRecord?
        do {
            record = try await credentials.apiKey(hash: hash)
        } catch {
            throw APIError(.serviceUnavailable, field: nil, rule: "unavailable", "API keys cannot be checked right now; retry later")
        }
        guard let record, record.isActive else {
            throw APIError(.unauthorized, field: "Authorization", rule: "apiKey", "the API key is unknown or revoked")
        }
        return Principal(scope: record.scope, credential: .storedKey(record.id))
    }

    private func tokenPrincipal(_ token: String) async throws(APIError) -> Principal {
        let codec: AppTokenCodec
        do {
            codec = try await tokens.codec()
        } catch {
            throw APIError(.serviceUnavailable, field: nil, rule: "unavailable", "app tokens cannot be checked right now; retry later")
        }
        let content: AppToken
        do {
            content = try codec.verify(token, now: clock.now())
        } catch {
            throw APIError(.unauthorized, field: "Authorization", rule: error == .expired ? "expired" : "appToken", error.description)
        }
        try await checkStanding(content)
        return Principal(
            scope: .app, credential: .appToken(content.kind, subject: content.subject, keyID: content.keyID), grantedGroups: content.groups ?? [])
    }

    /// Revocation that bites at once: a token whose minting key was revoked, or whose subject was signed
    /// out after it was minted, is refused on its next request (one store read, on every instance).
    private func checkStanding(_ token: AppToken) async throws(APIError) {
        let standing: AppTokenStanding
        do {
            standing = try await credentials.standing(subject: token.subject, keyID: token.keyID)
        } catch {
            throw APIError(.serviceUnavailable, field: nil, rule: "unavailable", "app tokens cannot be checked right now; retry later")
        }
        if standing.keyActive == false {
            let minter = token.kind == .user ? "backend key that minted it" : "app key that opened the installation"
            throw APIError(.unauthorized, field: "Authorization", rule: "revoked", "the \(minter) was revoked; the token no longer works")
        }
        guard token.generation >= standing.generation else {
            let remedy = token.kind == .user ? "ask the backend for a new user token" : "open a new installation"
            throw APIError(.unauthorized, field: "Authorization", rule: "revoked", "the token was withdrawn (signed out); \(remedy)")
        }
    }
}

/// The authentication middleware of one audience's routes: every request must carry an active key of
/// `scope`, and acts as its principal (`context.identity`).
struct APIKeyAuthenticator: AuthenticatorMiddleware {
    typealias Context = APIRequestContext
    let scope: APIKeyScope
    let keys: APIKeyChecker

    func authenticate(request: Request, context: Context) async throws -> Principal? {
        try await keys.principal(authorization: request.headers[.authorization], requiring: scope)
    }
}
