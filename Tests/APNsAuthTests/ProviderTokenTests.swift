import APNsAuth
import Crypto
import Foundation
import Testing

@Suite("ProviderToken signing and verification")
struct ProviderTokenTests {
    let key = APNsSigningKey.generate()
    let issuedAt = Date(timeIntervalSince1970: 1_700_000_123.9)

    func segments(_ jwt: String) -> [String] { jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    @Test func headerAndClaimsAreExact() throws {
        let token = ProviderToken.sign(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issuedAt)
        let parts = segments(token.jwt)
        #expect(parts.count == 3)
        #expect(String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self) == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self) == #"{"iss":"DEF123GHIJ","iat":1700000123}"#)
        #expect(try #require(Base64URL.decode(parts[2])).count == 64)
        #expect(!token.jwt.contains("="))
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_700_000_123))
        #expect(token.keyID == "ABC123DEFG")
        #expect(token.teamID == "DEF123GHIJ")
        #expect(token.authorizationHeaderValue == "bearer " + token.jwt)
    }

    @Test func signatureVerifiesWithCryptoDirectly() throws {
        let token = ProviderToken.sign(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issuedAt)
        let parts = segments(token.jwt)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(key.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        #expect(!APNsSigningKey.generate().publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func signatureVerifiesWithTheVerifier() throws {
        let token = ProviderToken.sign(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issuedAt)
        let decoded = try ProviderTokenVerifier.verify(token.jwt, publicKey: key.publicKey)
        #expect(decoded.keyID == "ABC123DEFG")
        #expect(decoded.teamID == "DEF123GHIJ")
        #expect(decoded.issuedAt == Date(timeIntervalSince1970: 1_700_000_123))
        #expect(decoded.algorithm == "ES256")
        #expect(decoded.type == nil)
        #expect(decoded.extraHeaderFields.isEmpty)
        #expect(decoded.extraClaims.isEmpty)
        #expect(decoded.signature.count == 64)
        #expect(decoded.signingInput == Data(segments(token.jwt)[0...1].joined(separator: ".").utf8))
    }

    @Test func derSignaturesAreAccepted() throws {
        let token = ProviderToken.sign(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issuedAt)
        let parts = segments(token.jwt)
        let raw = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        let der = raw.derRepresentation
        #expect(der.first == 0x30)
        let derJWT = parts[0] + "." + parts[1] + "." + Base64URL.encode(der)
        let decoded = try ProviderTokenVerifier.verify(derJWT, publicKey: key.publicKey)
        #expect(decoded.signature == der)
        #expect(decoded.keyID == "ABC123DEFG")
    }

    @Test func typAndExtraFieldsAreReported() throws {
        let jwt = try Fixtures.jwt(
            header: #"{"alg":"ES256","kid":"K","typ":"JWT","x5u":"u","cty":1}"#,
            claims: #"{"iss":"T","iat":5,"exp":10,"aud":["a"]}"#,
            key: key
        )
        let decoded = try ProviderTokenVerifier.verify(jwt, publicKey: key.publicKey)
        #expect(decoded.type == "JWT")
        #expect(decoded.extraHeaderFields == ["cty", "x5u"])
        #expect(decoded.extraClaims == ["aud", "exp"])
    }

    @Test func numericStringIssuedAtIsAccepted() throws {
        // kalyke-apns and a popular Swift client write "iat" as a string of digits; APNs accepts it.
        let jwt = try Fixtures.jwt(header: #"{"alg":"ES256","kid":"K"}"#, claims: #"{"iss":"T","iat":"1763900000"}"#, key: key)
        let decoded = try ProviderTokenVerifier.verify(jwt, publicKey: key.publicKey)
        #expect(decoded.issuedAt == Date(timeIntervalSince1970: 1_763_900_000))
        #expect(decoded.issuedAtIsString)
        let number = try Fixtures.jwt(header: #"{"alg":"ES256","kid":"K"}"#, claims: #"{"iss":"T","iat":1763900000}"#, key: key)
        #expect(try !ProviderTokenVerifier.verify(number, publicKey: key.publicKey).issuedAtIsString)
    }

    @Test func tamperedClaimsAreRejected() throws {
        let token = ProviderToken.sign(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issuedAt)
        let parts = segments(token.jwt)
        let forged = Base64URL.encode(Array(#"{"iss":"DEF123GHIJ","iat":1800000000}"#.utf8))
        #expect(throws: ProviderTokenError.signatureMismatch) {
            try ProviderTokenVerifier.verify(parts[0] + "." + forged + "." + parts[2], publicKey: key.publicKey)
        }
        #expect(throws: ProviderTokenError.signatureMismatch) {
            try ProviderTokenVerifier.verify(token.jwt, publicKey: APNsSigningKey.generate().publicKey)
        }
        // decode alone does not check the signature
        #expect(try ProviderTokenVerifier.decode(parts[0] + "." + forged + "." + parts[2]).issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func everyErrorCase() throws {
        let good = #"{"alg":"ES256","kid":"K"}"#
        let claims = #"{"iss":"T","iat":5}"#
        let validJWT = try Fixtures.jwt(header: good, claims: claims, key: key)
        let parts = segments(validJWT)
        func check(_ jwt: String, _ expected: ProviderTokenError, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: expected, sourceLocation: sourceLocation) { try ProviderTokenVerifier.verify(jwt, publicKey: key.publicKey) }
        }
        check("", .notThreeSegments)
        check("a.b", .notThreeSegments)
        check(validJWT + ".x", .notThreeSegments)
        check("*." + parts[1] + "." + parts[2], .badBase64(.header))
        check("." + parts[1] + "." + parts[2], .badBase64(.header))
        check(parts[0] + ".a+b." + parts[2], .badBase64(.claims))
        check(parts[0] + "." + parts[1] + ".", .badBase64(.signature))
        check(parts[0] + "." + parts[1] + ".%%", .badBase64(.signature))
        check(Base64URL.encode(Array("not json".utf8)) + "." + parts[1] + "." + parts[2], .badJSON(.header))
        check(Base64URL.encode(Array("[1]".utf8)) + "." + parts[1] + "." + parts[2], .badJSON(.header))
        check(parts[0] + "." + Base64URL.encode(Array("{".utf8)) + "." + parts[2], .badJSON(.claims))
        check(try Fixtures.jwt(header: #"{"alg":"HS256","kid":"K"}"#, claims: claims, key: key), .unsupportedAlgorithm("HS256"))
        check(try Fixtures.jwt(header: #"{"alg":"none","kid":"K"}"#, claims: claims, key: key), .unsupportedAlgorithm("none"))
        check(try Fixtures.jwt(header: #"{"kid":"K"}"#, claims: claims, key: key), .unsupportedAlgorithm(""))
        check(try Fixtures.jwt(header: #"{"alg":"ES256"}"#, claims: claims, key: key), .missingKeyID)
        check(try Fixtures.jwt(header: #"{"alg":"ES256","kid":""}"#, claims: claims, key: key), .missingKeyID)
        check(try Fixtures.jwt(header: #"{"alg":"ES256","kid":7}"#, claims: claims, key: key), .missingKeyID)
        check(try Fixtures.jwt(header: good, claims: #"{"iat":5}"#, key: key), .missingIssuer)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"","iat":5}"#, key: key), .missingIssuer)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"T"}"#, key: key), .missingIssuedAt)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"T","iat":"-5"}"#, key: key), .missingIssuedAt)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"T","iat":" 5"}"#, key: key), .missingIssuedAt)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"T","iat":""}"#, key: key), .missingIssuedAt)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"T","iat":"99999999999999999999"}"#, key: key), .missingIssuedAt)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"T","iat":5.5}"#, key: key), .missingIssuedAt)
        check(try Fixtures.jwt(header: good, claims: #"{"iss":"T","iat":true}"#, key: key), .missingIssuedAt)
        check(parts[0] + "." + parts[1] + "." + Base64URL.encode([UInt8](repeating: 1, count: 63)), .badSignatureEncoding)
        check(parts[0] + "." + parts[1] + "." + Base64URL.encode([0x30, 0x02, 0x05, 0x00]), .badSignatureEncoding)
    }

    @Test func errorDescriptionsAreSpecific() {
        #expect(ProviderTokenError.badBase64(.claims).description.contains("claims"))
        #expect(ProviderTokenError.unsupportedAlgorithm("HS256").description.contains("HS256"))
        #expect(ProviderTokenError.unsupportedAlgorithm("").description.contains("no string \"alg\""))
        #expect(ProviderTokenError.missingKeyID.description.contains("kid"))
        #expect(ProviderTokenError.missingIssuer.description.contains("iss"))
        #expect(ProviderTokenError.missingIssuedAt.description.contains("iat"))
    }

    @Test func descriptionRedactsTheJWT() {
        let token = ProviderToken.sign(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issuedAt)
        let signature = segments(token.jwt)[2]
        for text in ["\(token)", String(reflecting: token), String(describing: [token])] {
            #expect(!text.contains(signature))
            #expect(text.contains("redacted"))
        }
        var dumped = ""
        dump(token, to: &dumped)
        #expect(!dumped.contains(signature))
    }

    @Test func jsonSpecialCharactersInIDsAreEscaped() throws {
        let token = ProviderToken.sign(key: key, keyID: "a\"b\\c", teamID: "t\u{1}", issuedAt: issuedAt)
        let decoded = try ProviderTokenVerifier.verify(token.jwt, publicKey: key.publicKey)
        #expect(decoded.keyID == "a\"b\\c")
        #expect(decoded.teamID == "t\u{1}")
    }
}
