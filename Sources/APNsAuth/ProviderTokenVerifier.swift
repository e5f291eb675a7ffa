import Crypto
import Foundation

/// Reads and checks provider tokens the way APNs does (for the local simulator). Expiry, a future
/// `iat` and which key a `kid` names are the caller's decisions.
public struct ProviderTokenVerifier {
    /// Splits and decodes a JWT without checking its signature. Requires `alg` ES256, a `kid`, an
    /// `iss` and an integer `iat`, written as a JSON number or as a string of digits (two widely used
    /// client libraries write `"iat":"1763900000"`, and APNs accepts their tokens).
    public static func decode(_ jwt: String) throws(ProviderTokenError) -> DecodedProviderToken {
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .notThreeSegments }

        let header = try object(in: segments[0], segment: .header)
        guard case .string(let algorithm)? = header["alg"] else { throw .unsupportedAlgorithm("") }
        guard algorithm == "ES256" else { throw .unsupportedAlgorithm(algorithm) }
        guard case .string(let keyID)? = header["kid"], !keyID.isEmpty else { throw .missingKeyID }
        var type: String?
        if case .string(let value)? = header["typ"] { type = value }

        let claims = try object(in: segments[1], segment: .claims)
        guard case .string(let teamID)? = claims["iss"], !teamID.isEmpty else { throw .missingIssuer }
        let issuedAt: Int64
        let issuedAtIsString: Bool
        switch claims["iat"] {
        case .integer(let value)?:
            issuedAt = value
            issuedAtIsString = false
        case .string(let text)? where Self.isDecimalSeconds(text):
            guard let value = Int64(text) else { throw .missingIssuedAt }
            issuedAt = value
            issuedAtIsString = true
        default:
            throw .missingIssuedAt
        }

        guard let signature = Base64URL.decode(String(segments[2])), !signature.isEmpty else {
            throw .badBase64(.signature)
        }
        return DecodedProviderToken(
            keyID: keyID,
            teamID: teamID,
            issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)),
            issuedAtIsString: issuedAtIsString,
            algorithm: algorithm,
            type: type,
            extraHeaderFields: header.keys.filter { !["alg", "kid", "typ"].contains($0) }.sorted(),
            extraClaims: claims.keys.filter { !["iss", "iat"].contains($0) }.sorted(),
            signingInput: Data((segments[0] + "." + segments[1]).utf8),
            signature: signature
        )
    }

    /// Decodes the JWT and checks its ES256 signature with `publicKey`. Accepts both the JWS form
    /// (raw 64-byte `r‖s`) and DER-encoded ECDSA signatures, as APNs does.
    public static func verify(_ jwt: String, publicKey: P256.Signing.PublicKey) throws(ProviderTokenError) -> DecodedProviderToken {
        let decoded = try decode(jwt)
        let signature: P256.Signing.ECDSASignature
        if decoded.signature.count == 64, let raw = try? P256.Signing.ECDSASignature(rawRepresentation: decoded.signature) {
            signature = raw
        } else if let der = try? P256.Signing.ECDSASignature(derRepresentation: decoded.signature) {
            signature = der
        } else {
            throw .badSignatureEncoding
        }
        guard publicKey.isValidSignature(signature, for: decoded.signingInput) else { throw .signatureMismatch }
        return decoded
    }

    /// 1 to 19 ASCII digits, nothing else (no sign, space, fraction or exponent).
    private static func isDecimalSeconds(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...19).contains(bytes.count) && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func object(in segment: Substring, segment name: ProviderTokenError.Segment) throws(ProviderTokenError) -> [String: JWTField] {
        guard let data = Base64URL.decode(String(segment)), !data.isEmpty else { throw .badBase64(name) }
        do {
            return try JSONDecoder().decode([String: JWTField].self, from: data)
        } catch {
            throw .badJSON(name)
        }
    }
}

/// A JWT header or claim value, reduced to what verification needs.
enum JWTField: Decodable, Equatable {
    case string(String)
    case integer(Int64)
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if (try? container.decode(Bool.self)) != nil {
            self = .other
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .other
        }
    }
}
