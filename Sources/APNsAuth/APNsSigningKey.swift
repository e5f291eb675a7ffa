import Crypto
import Foundation
import SwiftASN1

/// An APNs provider key: the P-256 private key from a `.p8` file, used to sign provider tokens.
/// Its `description` never shows key material.
public struct APNsSigningKey: Sendable, CustomStringConvertible {
    /// The private key.
    public let privateKey: P256.Signing.PrivateKey

    /// Wraps an existing P-256 private key.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// Parses a `.p8` key: PEM `BEGIN PRIVATE KEY` (PKCS#8) or `BEGIN EC PRIVATE KEY` (SEC1), P-256.
    /// CRLF line ends, a missing final newline and base64 lines of any length are accepted.
    public init(pemRepresentation: String) throws(APNsKeyError) {
        let document = try PEMDocument(keyFileText: pemRepresentation, preferring: ["PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY"])
        switch document.discriminator {
        case "PRIVATE KEY", "EC PRIVATE KEY":
            break
        case "ENCRYPTED PRIVATE KEY":
            throw .unsupportedPEMLabel("\(document.discriminator) (password-protected; export it unencrypted)")
        default:
            throw .unsupportedPEMLabel(document.discriminator)
        }
        if let key = try? P256.Signing.PrivateKey(derRepresentation: document.derBytes) {
            self.init(privateKey: key)
            return
        }
        throw Self.diagnose(der: document.derBytes)
    }

    /// Reads and parses a `.p8` key file.
    public init(contentsOfFile path: String) throws(APNsKeyError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else {
            throw .fileUnreadable(path: path, reason: "it is a directory, not a .p8 file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason =
                FileManager.default.isReadableFile(atPath: path)
                ? "the file could not be read" : "permission denied"
            throw .fileUnreadable(path: path, reason: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .fileUnreadable(path: path, reason: "not text; expected a PEM .p8 file (a DER or PKCS#12 file is not accepted)")
        }
        try self.init(pemRepresentation: text)
    }

    /// A new random P-256 key.
    public static func generate() -> APNsSigningKey {
        APNsSigningKey(privateKey: P256.Signing.PrivateKey())
    }

    /// The key as a `.p8` file: PKCS#8 PEM (`BEGIN PRIVATE KEY`), 64-character lines, final newline.
    public var pemRepresentation: String {
        PEMDocument(type: "PRIVATE KEY", derBytes: Array(privateKey.derRepresentation)).fileText
    }

    /// The public half, which verifies provider tokens signed with this key.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The public key as PEM (`BEGIN PUBLIC KEY`, SubjectPublicKeyInfo), e.g. to register with a simulator.
    public var publicKeyPEM: String {
        PEMDocument(type: "PUBLIC KEY", derBytes: Array(publicKey.derRepresentation)).fileText
    }

    public var description: String { "APNsSigningKey(P-256, private key redacted)" }

    /// Explains why DER bytes are not a P-256 private key.
    private static func diagnose(der: [UInt8]) -> APNsKeyError {
        if (try? P384.Signing.PrivateKey(derRepresentation: der)) != nil { return .wrongCurve("P-384") }
        if (try? P521.Signing.PrivateKey(derRepresentation: der)) != nil { return .wrongCurve("P-521") }
        let knownOIDs: [(bytes: [UInt8], name: String, isCurve: Bool)] = [
            ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x0A], "secp256k1", true),
            ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22], "P-384", true),
            ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23], "P-521", true),
            ([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01], "RSA", false),
            ([0x06, 0x03, 0x2B, 0x65, 0x70], "Ed25519", false),
            ([0x06, 0x03, 0x2B, 0x65, 0x6E], "X25519", false),
            ([0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x38, 0x04, 0x01], "DSA", false),
        ]
        for oid in knownOIDs where contains(der, oid.bytes) {
            return oid.isCurve ? .wrongCurve(oid.name) : .notECKey(oid.name)
        }
        return .malformedKey
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
