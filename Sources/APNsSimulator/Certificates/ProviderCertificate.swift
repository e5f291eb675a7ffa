import APNsCore
import Crypto
import Foundation
import Logging
import X509

/// A provider (client) certificate for one app and one environment, signed by the simulator's CA, for
/// certificate-based connections to the simulated APNs. It carries the app the way Apple's push
/// certificates do (`PushCertificateFields`): subject UID = bundle id, CN `Apple Development IOS Push
/// Services: <bundle id>` (or `Production`), the environment extension, and the topics extension listing
/// the bundle id.
public struct ProviderCertificate: Sendable {
    public let bundleID: String
    public let environment: APNsEnvironment
    /// The certificate, PEM (what a client presents, e.g. `curl --cert`).
    public let certificatePEM: String
    /// Its P-256 private key, PEM (PKCS#8, e.g. `curl --key`).
    public let privateKeyPEM: String
    public let notValidAfter: Date

    /// How long an issued certificate is valid: a year, like Apple's.
    public static let validity: TimeInterval = 365 * 86400

    /// Issues a certificate signed by the CA in `directory` (the simulator's data directory; the CA is
    /// made there when missing, as `livepush simulator` would make it). A running simulator with the same
    /// data directory accepts the certificate at once.
    public static func issue(
        bundleID: String, environment: APNsEnvironment,
        directory: String = SimulatorDataDirectory.defaultPath(), now: Date = Date(),
        logger: Logger = Logger(label: "livepush.simulator.certificates")
    ) throws(CertificateStoreError) -> ProviderCertificate {
        guard !bundleID.isEmpty, bundleID.utf8.allSatisfy(PushRequestChecks.isTopicByte) else {
            throw .invalidBundleID(bundleID)
        }
        let files = CertificateFiles(directory: directory)
        try files.createDirectory()
        let (ca, _) = try SimulatorCertificates.loadOrCreateCA(files, now: now, logger: logger)
        let key = P256.Signing.PrivateKey()
        let notValidAfter = min(now.addingTimeInterval(validity), ca.certificate.notValidAfter)
        let certificate: Certificate
        do {
            let subject = DistinguishedName([
                RelativeDistinguishedName(.init(type: PushCertificateFields.userID, value: .init(utf8String: bundleID))),
                RelativeDistinguishedName(
                    .init(
                        type: .RDNAttributeType.commonName,
                        value: .init(utf8String: PushCertificateFields.commonName(bundleID: bundleID, environment: environment))
                    )),
                RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationName, value: .init(utf8String: "LivePush Simulator"))),
            ])
            let topics = try PushCertificateFields.encodeTopics([(bundleID, ["app"])])
            certificate = try LeafCertificate.issue(
                subject: subject, key: key, usage: .clientAuth,
                extensions: [
                    Certificate.Extension(
                        oid: PushCertificateFields.environmentExtension(environment), critical: false,
                        value: ArraySlice(PushCertificateFields.null)
                    ),
                    Certificate.Extension(oid: PushCertificateFields.topics, critical: false, value: ArraySlice(topics)),
                ],
                ca: ca, now: now, notValidAfter: notValidAfter
            )
        } catch {
            throw .cannotIssue(reason: "provider certificate: \(error)")
        }
        logger.debug(
            "issued a provider certificate",
            metadata: [
                "bundleID": "\(bundleID)", "environment": "\(environment.rawValue)",
            ])
        return ProviderCertificate(
            bundleID: bundleID, environment: environment,
            certificatePEM: try SimulatorCertificates.pem(certificate), privateKeyPEM: key.pemRepresentation,
            notValidAfter: notValidAfter
        )
    }

    /// Writes `<bundle id>-<environment>.pem` (the certificate, mode 0644) and `<bundle id>-<environment>-key.pem`
    /// (the key, mode 0600, never readable by others) into `directory`, made if missing. Returns both paths.
    public func write(to directory: String) throws(CertificateStoreError) -> (certificate: String, key: String) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: directory, reason: error.localizedDescription)
        }
        let files = CertificateFiles(directory: directory)
        let base = URL(fileURLWithPath: directory).appendingPathComponent("\(bundleID)-\(environment.rawValue)").path
        let paths = (certificate: base + ".pem", key: base + "-key.pem")
        try files.write(privateKeyPEM, to: paths.key, mode: 0o600)
        try files.write(certificatePEM, to: paths.certificate, mode: 0o644)
        return paths
    }
}
