import APNsAuth
import Crypto
import Foundation
import Testing

/// Files made with openssl, the way Apple's command-line recipe makes them:
///   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out key.p8
///   printf '%s' "$HEADER.$CLAIMS" | openssl dgst -binary -sha256 -sign key.p8 | base64url
/// The key is a throwaway made for these tests.
@Suite("openssl interoperability")
struct OpenSSLInteropTests {
    static let p8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgvzuUtKYpS6fnF38c
        zuO41VFPY85AuKudQZaKT541JzGhRANCAAT+Y4cvBRrnh+NVgNmtJOqv6SUn1KTW
        d++ES5Zc+6x5fu4UKJo6qTsKEYlf9PgkP4WB6OTlWtH77x3LTsgQZfB6
        -----END PRIVATE KEY-----

        """
    static let publicPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE/mOHLwUa54fjVYDZrSTqr+klJ9Sk
        1nfvhEuWXPuseX7uFCiaOqk7ChGJX/T4JD+Fgejk5VrR++8dy07IEGXweg==
        -----END PUBLIC KEY-----

        """
    /// Header `{"alg":"ES256","kid":"ABC123DEFG"}`, claims `{"iss":"DEF123GHIJ","iat":1700000000}`,
    /// DER signature (starts `MEYCIQ`, like Apple's sample token).
    static let jwt =
        "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ"
        + ".eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzAwMDAwMDAwfQ"
        + ".MEYCIQCzu87szPDMCYOFqR43YLIqdYMxKCDvoDdk_NVIDI_oPgIhAMdlBOUCkBTqDhRbuG3MY447FYmsrJd5g9Qa04mTgvNr"

    @Test func opensslKeyLoadsWithTheMatchingPublicKey() throws {
        let key = try APNsSigningKey(pemRepresentation: Self.p8)
        let expected = try P256.Signing.PublicKey(pemRepresentation: Self.publicPEM)
        #expect(key.publicKey.rawRepresentation == expected.rawRepresentation)
        #expect(key.publicKeyPEM == Self.publicPEM)
    }

    @Test func opensslSignedTokenVerifies() throws {
        let decoded = try ProviderTokenVerifier.verify(Self.jwt, publicKey: try P256.Signing.PublicKey(pemRepresentation: Self.publicPEM))
        #expect(decoded.keyID == "ABC123DEFG")
        #expect(decoded.teamID == "DEF123GHIJ")
        #expect(decoded.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(decoded.signature.first == 0x30)
    }

    @Test func ourTokenWithTheOpensslKeyHasTheSameSigningInput() throws {
        let key = try APNsSigningKey(pemRepresentation: Self.p8)
        let token = ProviderToken.sign(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let ours = token.jwt.split(separator: ".").prefix(2)
        let theirs = Self.jwt.split(separator: ".").prefix(2)
        #expect(ours.elementsEqual(theirs))
        _ = try ProviderTokenVerifier.verify(token.jwt, publicKey: try P256.Signing.PublicKey(pemRepresentation: Self.publicPEM))
    }

    @Test func ecparamOutputWithAParametersBlockFirstLoads() throws {
        let key = P256.Signing.PrivateKey()
        let text = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + Fixtures.sec1PEM(for: key)
        #expect(try APNsSigningKey(pemRepresentation: text).privateKey.rawRepresentation == key.rawRepresentation)
        #expect(throws: APNsKeyError.unsupportedPEMLabel("EC PARAMETERS")) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n")
        }
    }
}
