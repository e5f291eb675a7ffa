import APNsClient
import APNsCore
import APNsSimulator
import Foundation

/// Certificate mode: a provider certificate the simulator trusts, for clients that authenticate the
/// connection with a certificate instead of signing provider tokens.
extension SimulatedAPNs {
    /// Issues a provider certificate for `bundleID` (the app's, by default) signed by the simulator's CA,
    /// and writes it with its key into the simulator's folder (deleted with it).
    public func providerCertificate(bundleID: String? = nil, environment: APNsEnvironment = .sandbox) throws -> APNsClientCertificate {
        let issued = try ProviderCertificate.issue(bundleID: bundleID ?? self.bundleID, environment: environment, directory: directory.path)
        let paths = try issued.write(to: directory.appendingPathComponent("client-\(UUID().lowercased)").path)
        return APNsClientCertificate(certificateChainFile: paths.certificate, privateKeyFile: paths.key)
    }

    /// Runs `body` with a client that presents `certificate` (``providerCertificate(bundleID:environment:)``
    /// by default) and signs no provider token, and shuts it down afterwards.
    public func withCertificateClient<Result>(
        _ certificate: APNsClientCertificate? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (APNsClient) async throws -> Result
    ) async throws -> Result {
        var configuration = clientConfiguration(retry: .none)
        configuration.clientCertificate = try certificate ?? providerCertificate()
        return try await withAPNsClient(configuration, tokens: nil, body)
    }
}
