import Crypto
import Foundation
import Hummingbird
import HummingbirdAuth
import PushStore

/// API keys: generation, hashing and checking a bearer token against the development keys and the store.
package enum APIKeys {
    /// A new random key: `lp_<scope>_` and 43 base64url characters (256 bits).
    package static func generate(scope: ApiKeyScope) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let encoded = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "lp_\(scope.rawValue)_\(encoded)"
    }

    /// The SHA-256 of a key as 64 lowercase hex digits: what the store keeps.
    package static func hash(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }
}

/// Finds the principal of `Authorization: Bearer <key>` among the development keys and the stored keys.
struct APIKeyChecker: Sendable {
    let store: any PushStore
    /// Hashes of the development keys, with their scope.
    let developmentKeys: [String: ApiKeyScope]

    init(store: any PushStore, appKeys: [String], backendKeys: [String]) {
        self.store = store
        var keys: [String: ApiKeyScope] = [:]
        for key in appKeys { keys[APIKeys.hash(key)] = .app }
        for key in backendKeys { keys[APIKeys.hash(key)] = .backend }
        developmentKeys = keys
    }

    /// The request's principal when it holds an active key of `scope`; throws 401 without a known active
    /// key and 403 for a key of another scope.
    func principal(authorization: String?, requiring scope: ApiKeyScope) async throws(APIError) -> Principal {
        let field = "Authorization"
        guard let authorization, !authorization.isEmpty else {
            throw APIError(.unauthorized, field: field, rule: "required", "send 'Authorization: Bearer <API key>' (create keys with `livepush keys create --scope \(scope.rawValue)`)")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError(.unauthorized, field: field, rule: "bearer", "the Authorization header must be 'Bearer <API key>'")
        }
        let hash = APIKeys.hash(String(parts[1]).trimmingCharacters(in: .whitespaces))
        let found: Principal
        if let development = developmentKeys[hash] {
            found = Principal(scope: development, keyId: nil)
        } else {
            let record: ApiKeyRecord?
            do {
                record = try await store.apiKey(byHash: hash)
            } catch {
                throw APIError(.serviceUnavailable, field: nil, rule: "unavailable", "API keys cannot be checked right now; retry later")
            }
            guard let record, record.isActive else {
                throw APIError(.unauthorized, field: field, rule: "apiKey", "the API key is unknown or revoked")
            }
            found = Principal(scope: record.scope, keyId: record.id)
        }
        guard found.scope == scope else {
            let allowed = scope == .app ? "app keys register activities and tokens" : "backend keys send pushes and read activities"
            throw APIError(.forbidden, field: field, rule: "scope", "this route needs a \(scope.rawValue) key but the key has scope \(found.scope.rawValue); \(allowed)")
        }
        return found
    }
}

/// The authentication middleware of one audience's routes: every request must carry an active key of
/// `scope`, and acts as its principal (`context.identity`).
struct APIKeyAuthenticator: AuthenticatorMiddleware {
    typealias Context = APIRequestContext
    let scope: ApiKeyScope
    let keys: APIKeyChecker

    func authenticate(request: Request, context: Context) async throws -> Principal? {
        try await keys.principal(authorization: request.headers[.authorization], requiring: scope)
    }
}
