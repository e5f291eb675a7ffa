import APNsAuth
import Crypto
import Foundation
import LivePushTesting
import Testing

enum Fixtures {
    /// A throwaway 1024-bit RSA key in PKCS#8 PEM, to check that non-EC keys are refused clearly.
    static let rsaPKCS8 = """
        -----BEGIN PRIVATE KEY-----
        MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBANkKVdePK1jTRTfW
        yy67V2LxRo6SryhPtBwm+foTtOCEPZwUaSgQMktTJ5NnOypr/ZQqNfM3R4qx8o87
        hLXvOxbiwKYfMLbCcHQ9MoxqnIBSZhvOVoZxEO6wfkAuFfZa1a1QoBIIpnbQC02F
        9EXM4sfm0TLr8pYoTItyag39eiBtAgMBAAECgYBCrnk3NAZmUOqYQEbGgcpUXLqH
        vStRYEN+zr7IhVtyC07+cArqwycgm1iyYen8m5cZ+Wn/4oD5bLiQJwIb/3cQfRvp
        756j1DG3nJsqt5UON45HWuUFGmoWo+OlSlfKXds8H2bFN98hMqQ/GkY/RvA83wLv
        f+5aPiXxn/BEspd8pQJBAO1ZXe2UU3py6SfVKN3/62pMlYvuWb75nb3xpsX/6HJR
        M88MY/V7ziAa1+hrYxw8a+iTJQZZ1zDKY1GN8V74U7sCQQDqGG2XlYD1TZthARev
        27XKWt0e1zHgpeEtaYgAQtmejSvgxPCGEq3aJQxsoavQMyvapSjnSh6Ib1r5Tq8T
        WRX3AkEAvP1j5UEuF1pYfPcmS170PPguO/XWUFLCX/SDLzXOCPjPoBXlohqqzrWR
        JegcSudxpQdFfAEdcCQ3YUD86Poi8QJBAMa9fHU/yN75RxvAyLJVTm4AXE/tlHvL
        eHOMb5kBKC4yXfkSWb0JqK1V3MlxLCOy/d0/cI2D4I4mM88KnRpI/JsCQDt+YcFO
        3v46PfAavic9O2np9K4kHAKbxlPMRhG8QHCQiVjjp2pMNV6FP4o9lJK1CVi9Vg18
        q2LwliqzijWuo50=
        -----END PRIVATE KEY-----

        """

    /// A P-256 key as SEC1 (`BEGIN EC PRIVATE KEY`): version 1, the 32-byte scalar, [0] prime256v1.
    static func sec1PEM(for key: P256.Signing.PrivateKey) -> String {
        let der: [UInt8] =
            [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20] + Array(key.rawRepresentation)
            + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        return pem(label: "EC PRIVATE KEY", der: der, lineLength: 64)
    }

    /// An Ed25519 key in PKCS#8 (RFC 8410).
    static var ed25519PKCS8: String {
        let der: [UInt8] =
            [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
            + Array(Curve25519.Signing.PrivateKey().rawRepresentation)
        return pem(label: "PRIVATE KEY", der: der, lineLength: 64)
    }

    static func pem(label: String, der: [UInt8], lineLength: Int, lineEnd: String = "\n", finalNewline: Bool = true) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(lineLength)))
            rest = rest.dropFirst(lineLength)
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: lineEnd) + (finalNewline ? lineEnd : "")
    }

    /// Assembles and signs a JWT from literal header and claims JSON.
    static func jwt(header: String, claims: String, key: APNsSigningKey, derSignature: Bool = false) throws -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.privateKey.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(derSignature ? signature.derRepresentation : signature.rawRepresentation)
    }

    /// A path in the running test's own folder (its suite has the `.temporaryDirectory` trait, which
    /// deletes the folder when the test ends).
    static func temporaryPath(_ name: String) -> String {
        guard let folder = TemporaryDirectoryTrait.current else {
            Issue.record("temporaryPath needs the .temporaryDirectory trait on the test or its suite")
            return "/nonexistent/" + name
        }
        return folder.appendingPathComponent(name).path
    }
}
