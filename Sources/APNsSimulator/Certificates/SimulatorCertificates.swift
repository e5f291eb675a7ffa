import Crypto
import Foundation
import Logging
import SwiftASN1
import X509

/// The simulator's TLS identity: a local CA (what clients trust, `ca.pem`) and a server certificate it
/// signed for localhost and Apple's APNs host names. Made on first start in the data directory and
/// reused afterwards; the server certificate is reissued when it nears expiry or lacks a host name.
public struct SimulatorCertificates: Sendable {
    /// The CA certificate clients trust, PEM.
    public let caCertificatePEM: String
    /// Path of `ca.pem`.
    public let caCertificatePath: String
    /// The server certificate, PEM.
    public let serverCertificatePEM: String
    /// The server's private key, PEM (PKCS#8). Stays in the data directory (mode 0600).
    public let serverPrivateKeyPEM: String
    /// The DNS names and IP addresses the server certificate covers.
    public let serverNames: [String]

    /// The names every server certificate covers: loopback and Apple's APNs hosts.
    public static let standardNames = [
        "localhost", "127.0.0.1", "::1",
        "api.sandbox.push.apple.com", "api.push.apple.com",
        "api-broadcast.sandbox.push.apple.com", "api-broadcast.push.apple.com",
        "api-manage-broadcast.sandbox.push.apple.com", "api-manage-broadcast.push.apple.com",
    ]

    static let caValidity: TimeInterval = 10 * 365 * 86400
    /// Apple platforms refuse TLS server certificates valid for more than 825 days.
    static let serverValidity: TimeInterval = 825 * 86400
    /// Reissue the server certificate when it expires within this long.
    static let renewalMargin: TimeInterval = 30 * 86400

    /// Loads the certificates from `directory`, making whatever is missing, stale or incomplete.
    public static func loadOrCreate(
        directory: String, extraNames: [String] = [], now: Date = Date(),
        logger: Logger = Logger(label: "livepush.simulator.certificates")
    ) throws(CertificateStoreError) -> SimulatorCertificates {
        let files = CertificateFiles(directory: directory)
        try files.createDirectory()
        var names = standardNames
        for name in extraNames where !names.contains(name) { names.append(name) }

        let (ca, caIsNew) = try loadOrCreateCA(files, now: now, logger: logger)

        let server: (certificate: Certificate, key: P256.Signing.PrivateKey)
        if !caIsNew, let existing = files.loadServer(issuer: ca.certificate, names: names, now: now.addingTimeInterval(renewalMargin)) {
            server = existing
        } else {
            server = try issueServer(names: names, ca: ca, now: now)
            try files.write(server.certificate, to: files.serverCertificate, mode: 0o644)
            try files.write(server.key.pemRepresentation, to: files.serverKey, mode: 0o600)
            logger.info("issued the simulator server certificate", metadata: ["names": "\(names.joined(separator: ","))"])
        }

        return SimulatorCertificates(
            caCertificatePEM: try pem(ca.certificate),
            caCertificatePath: files.caCertificate,
            serverCertificatePEM: try pem(server.certificate),
            serverPrivateKeyPEM: server.key.pemRepresentation,
            serverNames: names
        )
    }

    /// The CA of the data directory, made (and written) when missing, unreadable or expired.
    static func loadOrCreateCA(
        _ files: CertificateFiles, now: Date, logger: Logger
    ) throws(CertificateStoreError) -> (ca: (certificate: Certificate, key: P256.Signing.PrivateKey), isNew: Bool) {
        if let existing = files.loadCA(now: now) { return (existing, false) }
        let ca = try issueCA(now: now)
        try files.write(ca.certificate, to: files.caCertificate, mode: 0o644)
        try files.write(ca.key.pemRepresentation, to: files.caKey, mode: 0o600)
        logger.info("created the simulator CA", metadata: ["path": "\(files.caCertificate)"])
        return (ca, true)
    }

    static func pem(_ certificate: Certificate) throws(CertificateStoreError) -> String {
        do {
            return try certificate.serializeAsPEM().pemString
        } catch {
            throw .cannotIssue(reason: "PEM encoding failed: \(error)")
        }
    }

    private static func issueCA(now: Date) throws(CertificateStoreError) -> (certificate: Certificate, key: P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        do {
            let name = try DistinguishedName {
                OrganizationName("LivePush")
                CommonName("LivePush Simulator Local CA")
            }
            let publicKey = Certificate.PublicKey(key.publicKey)
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(caValidity),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: publicKey)
                },
                issuerPrivateKey: Certificate.PrivateKey(key)
            )
            return (certificate, key)
        } catch {
            throw .cannotIssue(reason: "CA certificate: \(error)")
        }
    }

    private static func issueServer(
        names: [String], ca: (certificate: Certificate, key: P256.Signing.PrivateKey), now: Date
    ) throws(CertificateStoreError) -> (certificate: Certificate, key: P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        do {
            let subject = try DistinguishedName {
                OrganizationName("LivePush")
                CommonName("LivePush Simulator APNs")
            }
            let certificate = try LeafCertificate.issue(
                subject: subject, key: key, usage: .serverAuth,
                extensions: [try SubjectAlternativeNames(names.map(generalName)).makeCertificateExtension()],
                ca: ca, now: now, notValidAfter: now.addingTimeInterval(serverValidity)
            )
            return (certificate, key)
        } catch {
            throw .cannotIssue(reason: "server certificate: \(error)")
        }
    }

    /// An IP address as an iPAddress name, anything else as a DNS name.
    static func generalName(_ name: String) -> GeneralName {
        if let bytes = IPAddressBytes.parse(name) {
            return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes)))
        }
        return .dnsName(name)
    }
}
