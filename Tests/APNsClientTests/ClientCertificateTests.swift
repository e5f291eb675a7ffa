import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import Testing

/// Certificate-based connections: the client presents a provider certificate (PEM files) instead of
/// signing provider tokens, against a simulator that trusts the certificates its CA signed.
@Suite struct ClientCertificateTests {
    static let token = String(repeating: "cd", count: 32)

    /// Issues a certificate with the simulator's CA (or another one) and writes it to files.
    private func certificate(
        _ harness: SimulatorHarness, bundleID: String = SimulatorHarness.bundleID, caDirectory: String? = nil
    ) throws -> APNsClientCertificate {
        let issued = try ProviderCertificate.issue(
            bundleID: bundleID, environment: .sandbox, directory: caDirectory ?? harness.directory.path
        )
        let paths = try issued.write(to: harness.directory.appendingPathComponent("client-\(UUID().uuidString)").path)
        return APNsClientCertificate(certificateChainFile: paths.certificate, privateKeyFile: paths.key)
    }

    private func client(_ harness: SimulatorHarness, certificate: APNsClientCertificate) throws -> APNsClient {
        try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: harness.endpoint, additionalTrustRootFile: harness.simulator.caCertificatePath,
                clientCertificate: certificate, maximumConnections: 1, connectTimeout: .seconds(30), retry: .none
            ),
            tokens: nil
        )
    }

    private static func alert() throws -> APNsRequest {
        APNsRequest(
            token: try DeviceToken(hex: token),
            headers: try APNsRequestHeaders(pushType: .alert, topic: SimulatorHarness.bundleID, priority: .immediate),
            body: Data(#"{"aps":{"alert":{"title":"Hello"}}}"#.utf8)
        )
    }

    @Test func anAlertOverACertificateIsAccepted() async throws {
        let harness = try await SimulatorHarness.start(acceptUnknownTokens: true)
        let client = try client(harness, certificate: try certificate(harness))
        let response = try await client.send(Self.alert())
        #expect(response.status == 200)
        await client.shutdown()
        await harness.stop()
    }

    @Test func aLiveActivityPushOverACertificateIsTopicDisallowed() async throws {
        let harness = try await SimulatorHarness.start(acceptUnknownTokens: true)
        let client = try client(harness, certificate: try certificate(harness))
        let response = try await client.send(SimulatorHarness.update(token: Self.token, health: 0.5, text: "over a certificate"))
        #expect(response.status == 400)
        #expect(response.reason == .topicDisallowed)
        await client.shutdown()
        await harness.stop()
    }

    @Test func anotherAppsCertificateIsTopicDisallowed() async throws {
        let harness = try await SimulatorHarness.start(acceptUnknownTokens: true)
        let client = try client(harness, certificate: try certificate(harness, bundleID: "com.example.other"))
        #expect(try await client.send(Self.alert()).reason == .topicDisallowed)
        await client.shutdown()
        await harness.stop()
    }

    @Test func aCertificateFromAnotherCAFailsTheHandshake() async throws {
        let harness = try await SimulatorHarness.start(acceptUnknownTokens: true)
        let otherCA = harness.directory.appendingPathComponent("other-ca").path
        let client = try client(harness, certificate: try certificate(harness, caDirectory: otherCA))
        let alert = try Self.alert()
        do {
            _ = try await client.send(alert)
            Issue.record("a certificate the simulator's CA did not sign was accepted")
        } catch {
            guard case .tlsFailed = error else {
                Issue.record("expected tlsFailed, got \(error)")
                return
            }
        }
        await client.shutdown()
        await harness.stop()
    }

    @Test func unreadableCertificateFilesAreNamed() async throws {
        let endpoint = APNsEndpoint(host: "127.0.0.1", port: 2197)
        let missing = APNsClientCertificate(certificateChainFile: "/nonexistent/cert.pem", privateKeyFile: "/nonexistent/key.pem")
        #expect {
            _ = try APNsClient(configuration: APNsClientConfiguration(endpoint: endpoint, clientCertificate: missing), tokens: nil)
        } throws: { error in
            guard case APNsClientError.tlsFailed(_, let detail) = error else { return false }
            return detail.contains("/nonexistent/cert.pem") && detail.contains("does not exist")
        }
    }
}
