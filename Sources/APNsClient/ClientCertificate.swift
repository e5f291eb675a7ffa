import Foundation
import NIOSSL

/// A TLS client certificate for certificate-based provider connections (Apple's older alternative to
/// provider tokens): the certificate, with any intermediates after it, and its private key, as PEM files.
/// APNs authenticates such a connection by the certificate and ignores `authorization`, so a client
/// using one is made with `tokens: nil`. Apple accepts only some push types over certificates: Live
/// Activity pushes need token-based authentication.
public struct APNsClientCertificate: Sendable, Hashable {
    /// The certificate chain, PEM (`-----BEGIN CERTIFICATE-----`), leaf first.
    public var certificateChainFile: String
    /// The certificate's private key, PEM.
    public var privateKeyFile: String

    public init(certificateChainFile: String, privateKeyFile: String) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
    }

    /// Loads both files into `tls`. Errors name the file and what is wrong with it.
    func apply(to tls: inout TLSConfiguration, endpoint: String) throws(APNsClientError) {
        for (path, what) in [(certificateChainFile, "certificate"), (privateKeyFile, "certificate key")] {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .tlsFailed(endpoint: endpoint, detail: "client \(what) file '\(path)' does not exist or is not readable")
            }
        }
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateChainFile)
        } catch {
            throw .tlsFailed(endpoint: endpoint, detail: "client certificate file '\(certificateChainFile)' is not a PEM certificate: \(error)")
        }
        guard !chain.isEmpty else {
            throw .tlsFailed(
                endpoint: endpoint, detail: "client certificate file '\(certificateChainFile)' holds no certificate (-----BEGIN CERTIFICATE-----)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)
        } catch {
            throw .tlsFailed(endpoint: endpoint, detail: "client certificate key file '\(privateKeyFile)' is not a PEM private key: \(error)")
        }
        tls.certificateChain = chain.map { .certificate($0) }
        tls.privateKey = .privateKey(key)
    }
}
