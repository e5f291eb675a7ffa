import Crypto
import Foundation
import X509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The certificate files in the data directory: `ca.pem` (what clients trust), `ca-key.pem`,
/// `server.pem` and `server-key.pem`. Keys are written with mode 0600, the directory 0700.
struct CertificateFiles {
    let directory: String
    var caCertificate: String { path("ca.pem") }
    var caKey: String { path("ca-key.pem") }
    var serverCertificate: String { path("server.pem") }
    var serverKey: String { path("server-key.pem") }

    private func path(_ name: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    func createDirectory() throws(CertificateStoreError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .cannotCreateDirectory(path: directory, reason: error.localizedDescription)
        }
    }

    /// The CA, when both files parse, the key matches the certificate and it is still valid.
    func loadCA(now: Date) -> (certificate: Certificate, key: P256.Signing.PrivateKey)? {
        guard let pair = load(certificate: caCertificate, key: caKey), pair.certificate.notValidAfter > now else { return nil }
        return pair
    }

    /// The server certificate, when it parses, was signed by `issuer`, covers `names` and is valid at `now`.
    func loadServer(issuer: Certificate, names: [String], now: Date) -> (certificate: Certificate, key: P256.Signing.PrivateKey)? {
        guard let pair = load(certificate: serverCertificate, key: serverKey) else { return nil }
        let certificate = pair.certificate
        guard certificate.notValidAfter > now, certificate.issuer == issuer.subject,
            issuer.publicKey.isValidSignature(certificate.signature, for: certificate),
            let san = try? certificate.extensions.subjectAlternativeNames
        else { return nil }
        let covered = Set(san)
        guard names.allSatisfy({ covered.contains(SimulatorCertificates.generalName($0)) }) else { return nil }
        return pair
    }

    private func load(certificate path: String, key keyPath: String) -> (certificate: Certificate, key: P256.Signing.PrivateKey)? {
        guard let certificatePEM = try? String(contentsOfFile: path, encoding: .utf8),
            let keyPEM = try? String(contentsOfFile: keyPath, encoding: .utf8),
            let certificate = try? Certificate(pemEncoded: certificatePEM),
            let key = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM),
            certificate.publicKey == Certificate.PublicKey(key.publicKey)
        else { return nil }
        return (certificate, key)
    }

    func write(_ certificate: Certificate, to path: String, mode: Int) throws(CertificateStoreError) {
        try write(try SimulatorCertificates.pem(certificate), to: path, mode: mode)
    }

    /// Writes atomically; the file is created with `mode` before any byte lands, so a key is never
    /// readable by others, even briefly.
    func write(_ text: String, to path: String, mode: Int) throws(CertificateStoreError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode_t(mode))
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
        systemClose(descriptor)
        guard written == bytes.count else {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: "short write")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}
