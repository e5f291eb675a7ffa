import APNsCore
import X509

/// The client certificate a connection presented. The TLS handshake has already verified it against the
/// simulator's CA: an untrusted, expired or badly signed certificate fails the handshake and never gets
/// here. What is left is whether it is an APNs provider certificate. On a connection with one, the
/// certificate authenticates every request and `authorization` is ignored, as Apple documents.
enum ClientCertificate: Sendable, Hashable {
    case provider(ProviderCertificateIdentity)
    /// Signed by the CA but naming no bundle id or no push environment (the simulator's own server
    /// certificate, say): every request gets 403 BadCertificate.
    case notAProviderCertificate

    /// Reads the certificate's DER bytes.
    init(der: [UInt8]) {
        guard let certificate = try? Certificate(derEncoded: der),
            let identity = try? ProviderCertificateIdentity(certificate)
        else {
            self = .notAProviderCertificate
            return
        }
        self = .provider(identity)
    }

    /// Step 4 of `PushRequestChecks` on a certificate connection: not a provider certificate: 403
    /// `BadCertificate`; not valid for the request's environment: 403 `BadCertificateEnvironment`.
    func authenticate(environment: APNsEnvironment) throws(Rejection) -> ProviderCertificateIdentity {
        guard case .provider(let identity) = self else { throw Rejection(.badCertificate) }
        guard identity.environments.contains(environment) else { throw Rejection(.badCertificateEnvironment) }
        return identity
    }
}
