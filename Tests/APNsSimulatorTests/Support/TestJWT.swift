import Crypto
import Foundation

/// Builds provider tokens by hand, for shapes the signing API does not make (DER signatures, odd claims).
enum TestJWT {
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `header.claims.signature` with a DER-encoded ECDSA signature, as `openssl dgst -sign` makes.
    static func derSigned(key: P256.Signing.PrivateKey, keyID: String, teamID: String, issuedAt: Date) throws -> String {
        try signed(key: key, keyID: keyID, claims: #"{"iss":"\#(teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#, der: true)
    }

    /// `header.claims.signature` with `iat` written as a string of digits (`"iat":"1763900000"`), as
    /// kalyke-apns and some Swift clients write it; raw `r‖s` signature.
    static func stringIssuedAt(key: P256.Signing.PrivateKey, keyID: String, teamID: String, issuedAt: Date) throws -> String {
        try signed(key: key, keyID: keyID, claims: #"{"iss":"\#(teamID)","iat":"\#(Int(issuedAt.timeIntervalSince1970))"}"#, der: false)
    }

    /// ES256 over `{"alg":"ES256","kid":KEY_ID}` and `claims`, the signature DER-encoded or raw.
    private static func signed(key: P256.Signing.PrivateKey, keyID: String, claims: String, der: Bool) throws -> String {
        let input = base64URL(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8)) + "." + base64URL(Array(claims.utf8))
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + base64URL(der ? Array(signature.derRepresentation) : Array(signature.rawRepresentation))
    }
}
