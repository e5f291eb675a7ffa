/// Why a provider token (JWT) could not be decoded or verified.
public enum ProviderTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The three dot-separated parts of a compact JWT.
    public enum Segment: String, Sendable, Equatable {
        case header
        case claims
        case signature
    }

    /// The token is not `header.claims.signature`.
    case notThreeSegments
    /// A segment is not base64url.
    case badBase64(Segment)
    /// A segment is not a JSON object.
    case badJSON(Segment)
    /// `alg` is not `ES256` (empty when missing or not a string).
    case unsupportedAlgorithm(String)
    /// The header has no non-empty string `kid`.
    case missingKeyID
    /// The claims have no non-empty string `iss`.
    case missingIssuer
    /// The claims have no integer `iat`.
    case missingIssuedAt
    /// The signature is neither 64 raw bytes (`r‖s`) nor a DER ECDSA signature.
    case badSignatureEncoding
    /// The signature does not verify with the given public key.
    case signatureMismatch

    public var description: String {
        switch self {
        case .notThreeSegments:
            return "provider token is not a compact JWT: expected three base64url segments separated by '.' (header.claims.signature)"
        case .badBase64(let segment):
            return "provider token \(segment.rawValue) segment is not base64url (A-Z a-z 0-9 - _, no padding needed)"
        case .badJSON(let segment):
            return "provider token \(segment.rawValue) segment is not a JSON object"
        case .unsupportedAlgorithm(let algorithm):
            return algorithm.isEmpty
                ? "provider token header has no string \"alg\"; only ES256 is accepted"
                : "provider token header has alg \"\(algorithm)\"; only ES256 is accepted"
        case .missingKeyID:
            return "provider token header has no non-empty string \"kid\" (the Key ID of the signing key)"
        case .missingIssuer:
            return "provider token claims have no non-empty string \"iss\" (the Team ID)"
        case .missingIssuedAt:
            return "provider token claims have no integer \"iat\" (issue time in seconds since 1970)"
        case .badSignatureEncoding:
            return "provider token signature is neither a raw 64-byte r||s ECDSA signature nor a DER-encoded one"
        case .signatureMismatch:
            return "provider token signature does not verify with the key registered for its kid"
        }
    }
}
