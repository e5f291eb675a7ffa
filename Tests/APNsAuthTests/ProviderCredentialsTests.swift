import APNsAuth
import Crypto
import Foundation
import LivePushTesting
import Testing

@Suite("ProviderCredentials (used by `livepush jwt` and `livepush send`)", .temporaryDirectory)
struct ProviderCredentialsTests {
    @Test func tokenFromAKeyFileVerifies() throws {
        let key = APNsSigningKey.generate()
        let path = Fixtures.temporaryPath("AuthKey_SIMKEY0001.p8")
        try key.write(toFile: path, overwrite: false)
        let credentials = try ProviderCredentials(keyFile: path, keyID: "SIMKEY0001", teamID: "TEAM000001")
        let jwt = credentials.makeToken(issuedAt: Date(timeIntervalSince1970: 1_700_000_000)).jwt
        let decoded = try ProviderTokenVerifier.verify(jwt, publicKey: try P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM))
        #expect(decoded.keyID == "SIMKEY0001")
        #expect(decoded.teamID == "TEAM000001")
        #expect(decoded.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func idsMayBeAnyNonEmptyTextWithoutWhitespace() throws {
        let key = APNsSigningKey.generate()
        #expect(try ProviderCredentials(key: key, keyID: "sim-key-1", teamID: "T").keyID == "sim-key-1")
        #expect(throws: ProviderCredentialsError.empty(.keyID)) { try ProviderCredentials(key: key, keyID: "", teamID: "T") }
        #expect(throws: ProviderCredentialsError.empty(.teamID)) { try ProviderCredentials(key: key, keyID: "K", teamID: "") }
        #expect(throws: ProviderCredentialsError.containsWhitespace(.keyID)) { try ProviderCredentials(key: key, keyID: " ABC", teamID: "T") }
        #expect(throws: ProviderCredentialsError.containsWhitespace(.teamID)) { try ProviderCredentials(key: key, keyID: "K", teamID: "T\n") }
        #expect(throws: ProviderCredentialsError.containsWhitespace(.teamID)) { try ProviderCredentials(key: key, keyID: "K", teamID: "A\u{7}B") }
        #expect(ProviderCredentialsError.empty(.teamID).description.contains("team id"))
    }

    @Test func keyFileErrorsNameTheFile() throws {
        let missing = Fixtures.temporaryPath("missing.p8")
        #expect(throws: ProviderCredentialsError.key(path: missing, .fileNotFound(path: missing))) {
            try ProviderCredentials(keyFile: missing, keyID: "K", teamID: "T")
        }
        let p384 = Fixtures.temporaryPath("p384.p8")
        try P384.Signing.PrivateKey().pemRepresentation.write(toFile: p384, atomically: true, encoding: .utf8)
        do {
            _ = try ProviderCredentials(keyFile: p384, keyID: "K", teamID: "T")
            Issue.record("a P-384 key was accepted")
        } catch {
            #expect(error == .key(path: p384, .wrongCurve("P-384")))
            #expect(error.description.contains(p384))
            #expect(error.description.contains("P-256"))
        }
    }

    @Test func idsAreCheckedBeforeTheKeyFileIsRead() {
        #expect(throws: ProviderCredentialsError.empty(.keyID)) {
            try ProviderCredentials(keyFile: Fixtures.temporaryPath("missing.p8"), keyID: "", teamID: "T")
        }
    }
}
