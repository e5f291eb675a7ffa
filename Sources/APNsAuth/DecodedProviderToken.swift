import Foundation

/// The parts of a provider token, as read by `ProviderTokenVerifier`.
public struct DecodedProviderToken: Sendable, Equatable {
    /// The `kid` header.
    public let keyID: String
    /// The `iss` claim (Team ID).
    public let teamID: String
    /// The `iat` claim.
    public let issuedAt: Date
    /// True when `iat` was written as a string of digits (`"iat":"1763900000"`), as some client
    /// libraries do, instead of the JSON number Apple's recipe writes. APNs accepts both.
    public let issuedAtIsString: Bool
    /// The `alg` header (always `ES256` once decoded).
    public let algorithm: String
    /// The `typ` header when present (libraries add `"JWT"`; APNs accepts it).
    public let type: String?
    /// Header names other than `alg`, `kid` and `typ`, sorted. Whether APNs accepts them is unconfirmed.
    public let extraHeaderFields: [String]
    /// Claim names other than `iss` and `iat`, sorted.
    public let extraClaims: [String]
    /// The bytes the signature covers: `base64url(header).base64url(claims)` as ASCII.
    public let signingInput: Data
    /// The signature segment decoded: 64 raw bytes or a DER ECDSA signature.
    public let signature: Data
}
