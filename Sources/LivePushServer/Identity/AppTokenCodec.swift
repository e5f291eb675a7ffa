import APNsAuth
import Crypto
import Foundation

/// Signs and checks app tokens: compact JWTs with HS256 (HMAC-SHA256).
///
/// HS256 because the server is the only party that both issues and checks them: a symmetric key needs no
/// key distribution and costs one HMAC per request instead of a public-key verification, and the
/// key never leaves the server. Every instance on one database shares the key (``AppTokenKey``).
package struct AppTokenCodec: Sendable {
    private let key: SymmetricKey

    package init(secret: Data) {
        key = SymmetricKey(data: secret)
    }

    private static let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    /// The signed token.
    package func sign(_ token: AppToken) -> String {
        let claims = AppToken.Claims(
            iss: AppToken.issuer, sub: token.subject, typ: token.kind, iat: token.issuedAt, exp: token.expiresAt,
            key: token.keyID?.lowercased, gen: token.generation == 0 ? nil : token.generation,
            grp: token.groups?.isEmpty == false ? token.groups : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain fields cannot fail.
        let payload = Base64URL.encode((try? encoder.encode(claims)) ?? Data())
        let signingInput = Self.header + "." + payload
        let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
        return signingInput + "." + Base64URL.encode(Data(signature))
    }

    /// Why a token was refused (the message never repeats the token).
    package enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case malformed
        case algorithm
        case signature
        case claims(String)
        case expired

        package var description: String {
            switch self {
            case .malformed: return "the token is not a compact JWT (three base64url parts)"
            case .algorithm: return "the token is not signed with HS256 by this server"
            case .signature: return "the token's signature does not match; it was not issued by this server or was changed"
            case .claims(let detail): return "the token's claims are not accepted: \(detail)"
            case .expired: return "the token has expired; ask the backend for a new one"
            }
        }
    }

    /// The token's content when its signature is this server's and it has not expired at `now`.
    package func verify(_ text: String, now: Date) throws(Refusal) -> AppToken {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(String(parts[0])),
            let payloadData = Base64URL.decode(String(parts[1])), let signature = Base64URL.decode(String(parts[2]))
        else { throw .malformed }
        struct Header: Decodable { var alg: String }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "HS256" else {
            throw .algorithm
        }
        let signingInput = Data(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else {
            throw .signature
        }
        guard let claims = try? JSONDecoder().decode(AppToken.Claims.self, from: payloadData) else {
            throw .claims("iss, sub, typ and iat are required")
        }
        guard claims.iss == AppToken.issuer else { throw .claims("iss is not '\(AppToken.issuer)'") }
        guard !claims.sub.isEmpty else { throw .claims("sub is empty") }
        // Both kinds expire: an installation token without exp (minted before they did) is refused, and
        // the app opens a new installation.
        guard let exp = claims.exp else { throw .claims("the token has no exp; open a new installation or ask the backend for a new token") }
        guard Double(exp) > now.timeIntervalSince1970 else { throw .expired }
        // Separate namespaces: a user token never acts for an installation.
        let isInstallationID = claims.sub.hasPrefix(AppToken.installationPrefix)
        guard isInstallationID == (claims.typ == .installation) else { throw .claims("sub does not fit the token's kind") }
        var keyID: UUID?
        if let key = claims.key {
            guard let parsed = UUID(uuidString: key) else { throw .claims("key is not a key id") }
            keyID = parsed
        }
        return AppToken(
            subject: claims.sub, kind: claims.typ, issuedAt: claims.iat, expiresAt: exp, keyID: keyID, generation: claims.gen ?? 0,
            groups: claims.typ == .user ? claims.grp : nil)
    }
}
