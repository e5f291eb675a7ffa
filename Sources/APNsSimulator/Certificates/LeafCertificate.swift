import Crypto
import Foundation
import X509

/// A certificate the simulator's CA signs for a key of its own (the server's, or a provider's): valid
/// from an hour before `now`, not a CA, for digital signatures with `usage`, naming its key and the CA's,
/// then `extensions`.
enum LeafCertificate {
    static func issue(
        subject: DistinguishedName, key: P256.Signing.PrivateKey, usage: ExtendedKeyUsage.Usage,
        extensions: [Certificate.Extension], ca: (certificate: Certificate, key: P256.Signing.PrivateKey),
        now: Date, notValidAfter: Date
    ) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key.publicKey)
        let caKeyID = try ca.certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        var all = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([usage])
            SubjectKeyIdentifier(hash: publicKey)
            AuthorityKeyIdentifier(keyIdentifier: caKeyID)
        }
        for certificateExtension in extensions { try all.append(certificateExtension) }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: notValidAfter,
            issuer: ca.certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: all, issuerPrivateKey: Certificate.PrivateKey(ca.key)
        )
    }
}
