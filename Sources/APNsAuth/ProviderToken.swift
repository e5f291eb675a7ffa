import Crypto
import Foundation

/// A signed APNs provider token (an ES256 JWT) with what it was made from. `description`,
/// `debugDescription` and its mirror redact the JWT itself, so logging the value is safe.
public struct ProviderToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The compact JWT: `base64url(header).base64url(claims).base64url(r‖s)`. A secret: never log it.
    public let jwt: String
    /// The `kid` header: the 10-character Key ID of the signing key.
    public let keyID: String
    /// The `iss` claim: the 10-character Team ID.
    public let teamID: String
    /// The `iat` claim, whole seconds.
    public let issuedAt: Date

    /// Signs a token: header `{"alg":"ES256","kid":KEY_ID}`, claims `{"iss":TEAM_ID,"iat":SECONDS}`,
    /// a raw 64-byte `r‖s` signature, all base64url without padding. `issuedAt` is truncated to seconds.
    public static func sign(key: APNsSigningKey, keyID: String, teamID: String, issuedAt: Date) -> ProviderToken {
        let seconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let header = #"{"alg":"ES256","kid":"# + JSONText.quoted(keyID) + "}"
        let claims = #"{"iss":"# + JSONText.quoted(teamID) + #","iat":"# + String(seconds) + "}"
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.privateKey.signature(for: Data(signingInput.utf8))
        } catch {
            preconditionFailure("P-256 ECDSA signing with a valid key failed: \(error)")
        }
        return ProviderToken(
            jwt: signingInput + "." + Base64URL.encode(signature.rawRepresentation),
            keyID: keyID,
            teamID: teamID,
            issuedAt: Date(timeIntervalSince1970: TimeInterval(seconds))
        )
    }

    /// The `authorization` header value: `bearer <JWT>`.
    public var authorizationHeaderValue: String { "bearer " + jwt }

    public var description: String {
        "ProviderToken(kid: \(keyID), iss: \(teamID), iat: \(Int64(issuedAt.timeIntervalSince1970)), jwt: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["keyID": keyID, "teamID": teamID, "issuedAt": issuedAt, "jwt": "<redacted>"])
    }
}

/// Minimal JSON string quoting for the fixed-shape JWT header and claims.
enum JSONText {
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
