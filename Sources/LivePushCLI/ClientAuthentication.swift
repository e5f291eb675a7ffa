import APNsAuth
import APNsClient

/// How a command's client authenticates: the provider certificate of `--cert-file`, or else a provider
/// token signed with the `.p8` key of `--key-file`, `--key-id`, `--team-id`.
struct ClientAuthentication {
    /// The certificate that authenticates the connection; nil when the client signs provider tokens.
    var certificate: APNsClientCertificate?
    /// The provider tokens; nil when a certificate authenticates the connection.
    var tokens: ProviderTokenSource?

    /// Reads the certificate flags first: with a certificate, no key is read.
    init(credentials: CredentialOptions, certificate: CertificateOptions) throws {
        self.certificate = try certificate.resolve()
        if self.certificate == nil {
            let resolved = try credentials.resolve()
            tokens = try ProviderTokenSource(key: resolved.key, keyID: resolved.keyID, teamID: resolved.teamID)
        }
    }

    /// What a dry run shows as `authorization`: a provider token is signed only when the request is sent.
    static func dryRunNote(credentials: CredentialOptions, certificate: CertificateOptions) -> String {
        certificate.isProvided
            ? "(none: the client certificate authenticates the connection)"
            : credentials.isProvided ? "bearer <provider token, signed when sent>" : "(none: no credentials given)"
    }
}
