import APNsAuth
import Crypto
import Foundation
import LivePushTesting
import Testing

@Suite("APNsSigningKey", .temporaryDirectory)
struct SigningKeyTests {
    @Test func pkcs8RoundTripKeepsTheKey() throws {
        let key = APNsSigningKey.generate()
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        #expect(pem.split(separator: "\n").allSatisfy { $0.count <= 64 })
        let parsed = try APNsSigningKey(pemRepresentation: pem)
        #expect(parsed.privateKey.rawRepresentation == key.privateKey.rawRepresentation)
        #expect(parsed.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
    }

    @Test func generatedKeysDiffer() {
        #expect(APNsSigningKey.generate().privateKey.rawRepresentation != APNsSigningKey.generate().privateKey.rawRepresentation)
    }

    @Test func cryptoKitReadsOurPEM() throws {
        let key = APNsSigningKey.generate()
        let viaCrypto = try P256.Signing.PrivateKey(pemRepresentation: key.pemRepresentation)
        #expect(viaCrypto.rawRepresentation == key.privateKey.rawRepresentation)
    }

    @Test(arguments: [
        (lineLength: 64, lineEnd: "\n", finalNewline: true),
        (lineLength: 64, lineEnd: "\n", finalNewline: false),
        (lineLength: 64, lineEnd: "\r\n", finalNewline: true),
        (lineLength: 76, lineEnd: "\r\n", finalNewline: false),
        (lineLength: 10_000, lineEnd: "\n", finalNewline: false),
        (lineLength: 20, lineEnd: "\n", finalNewline: true),
    ])
    func pkcs8FormattingVariants(lineLength: Int, lineEnd: String, finalNewline: Bool) throws {
        let key = P256.Signing.PrivateKey()
        let pem = Fixtures.pem(
            label: "PRIVATE KEY", der: Array(key.derRepresentation),
            lineLength: lineLength, lineEnd: lineEnd, finalNewline: finalNewline
        )
        let parsed = try APNsSigningKey(pemRepresentation: pem)
        #expect(parsed.privateKey.rawRepresentation == key.rawRepresentation)
    }

    @Test func sec1IsAccepted() throws {
        let key = P256.Signing.PrivateKey()
        let parsed = try APNsSigningKey(pemRepresentation: Fixtures.sec1PEM(for: key))
        #expect(parsed.privateKey.rawRepresentation == key.rawRepresentation)
    }

    @Test func surroundingTextAndIndentationAreTolerated() throws {
        let key = APNsSigningKey.generate()
        let pem = "Key for team X\n" + key.pemRepresentation.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        #expect(try APNsSigningKey(pemRepresentation: pem).privateKey.rawRepresentation == key.privateKey.rawRepresentation)
    }

    @Test func p384IsRejectedAsWrongCurve() {
        let pem = P384.Signing.PrivateKey().pemRepresentation
        #expect(throws: APNsKeyError.wrongCurve("P-384")) { try APNsSigningKey(pemRepresentation: pem) }
        #expect(APNsKeyError.wrongCurve("P-384").description.contains("P-256"))
    }

    @Test func p521IsRejectedAsWrongCurve() {
        let pem = P521.Signing.PrivateKey().pemRepresentation
        #expect(throws: APNsKeyError.wrongCurve("P-521")) { try APNsSigningKey(pemRepresentation: pem) }
    }

    @Test func rsaAndEd25519AreRejectedAsNotEC() {
        #expect(throws: APNsKeyError.notECKey("RSA")) { try APNsSigningKey(pemRepresentation: Fixtures.rsaPKCS8) }
        #expect(throws: APNsKeyError.notECKey("Ed25519")) { try APNsSigningKey(pemRepresentation: Fixtures.ed25519PKCS8) }
        #expect(APNsKeyError.notECKey("RSA").description.contains("it is RSA"))
    }

    @Test func otherPEMBlocksAreRejectedByLabel() {
        let publicPEM = APNsSigningKey.generate().publicKeyPEM
        #expect(throws: APNsKeyError.unsupportedPEMLabel("PUBLIC KEY")) { try APNsSigningKey(pemRepresentation: publicPEM) }
    }

    @Test func emptyAndNonPEMInput() {
        #expect(throws: APNsKeyError.empty) { try APNsSigningKey(pemRepresentation: "") }
        #expect(throws: APNsKeyError.empty) { try APNsSigningKey(pemRepresentation: " \r\n\t") }
        #expect(throws: APNsKeyError.empty) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n")
        }
        #expect(throws: APNsKeyError.notPEM) { try APNsSigningKey(pemRepresentation: "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49") }
        #expect(throws: APNsKeyError.notPEM) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n")
        }
        #expect(throws: APNsKeyError.badBase64) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nnot*base64!\n-----END PRIVATE KEY-----\n")
        }
        #expect(throws: APNsKeyError.malformedKey) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        }
    }

    @Test func fileLoading() throws {
        let key = APNsSigningKey.generate()
        let path = Fixtures.temporaryPath("AuthKey_TEST.p8")
        try key.pemRepresentation.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try APNsSigningKey(contentsOfFile: path).privateKey.rawRepresentation == key.privateKey.rawRepresentation)

        let missing = Fixtures.temporaryPath("missing.p8")
        #expect(throws: APNsKeyError.fileNotFound(path: missing)) { try APNsSigningKey(contentsOfFile: missing) }
        #expect(APNsKeyError.fileNotFound(path: missing).description.contains(missing))

        let directory = (path as NSString).deletingLastPathComponent
        #expect(throws: APNsKeyError.self) { try APNsSigningKey(contentsOfFile: directory) }
        do {
            _ = try APNsSigningKey(contentsOfFile: directory)
        } catch {
            guard case .fileUnreadable(let reportedPath, _) = error else {
                Issue.record("expected fileUnreadable, got \(error)")
                return
            }
            #expect(reportedPath == directory)
        }
    }

    @Test func errorDescriptionsNeverContainKeyMaterial() throws {
        let key = APNsSigningKey.generate()
        let body = key.pemRepresentation.split(separator: "\n")[1]
        let corrupted = key.pemRepresentation.replacingOccurrences(of: body, with: body.dropLast(3) + "***")
        do {
            _ = try APNsSigningKey(pemRepresentation: corrupted)
            Issue.record("a corrupted key was accepted")
        } catch {
            #expect(!error.description.contains(body.prefix(16)))
        }
        #expect(!"\(key)".contains(body.prefix(16)))
    }

    @Test func publicKeyPEMMatches() throws {
        let key = APNsSigningKey.generate()
        #expect(key.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let parsed = try P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)
        #expect(parsed.rawRepresentation == key.publicKey.rawRepresentation)
    }
}
