import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LivePushTesting
import Testing

/// Certificate-based connections: the client presents a provider certificate (PEM files) instead of
/// signing provider tokens, against a simulator that trusts the certificates its CA signed.
@Suite struct ClientCertificateTests {
    static let token = String(repeating: "cd", count: 32)

    /// A certificate signed by another CA than the simulator's.
    private func foreignCertificate(_ apns: SimulatedAPNs) throws -> APNsClientCertificate {
        let otherCA = apns.directory.appendingPathComponent("other-ca").path
        let issued = try ProviderCertificate.issue(bundleID: Rangers.bundleID, environment: .sandbox, directory: otherCA)
        let paths = try issued.write(to: apns.directory.appendingPathComponent("client-\(UUID().uuidString)").path)
        return APNsClientCertificate(certificateChainFile: paths.certificate, privateKeyFile: paths.key)
    }

    private static func alert() throws -> APNsRequest {
        APNsRequest(
            token: try DeviceToken(hex: token),
            headers: try APNsRequestHeaders(pushType: .alert, topic: Rangers.bundleID, priority: .immediate),
            body: Data(#"{"aps":{"alert":{"title":"Hello"}}}"#.utf8)
        )
    }

    @Test func anAlertOverACertificateIsAccepted() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            try await apns.withCertificateClient { client in
                let response = try await client.send(Self.alert())
                #expect(response.status == 200)
            }
        }
    }

    @Test func aLiveActivityPushOverACertificateIsTopicDisallowed() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            try await apns.withCertificateClient { client in
                let response = try await client.send(Rangers.update(token: Self.token, health: 0.5, text: "over a certificate"))
                #expect(response.status == 400)
                #expect(response.reason == .topicDisallowed)
            }
        }
    }

    @Test func anotherAppsCertificateIsTopicDisallowed() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            try await apns.withCertificateClient(try apns.providerCertificate(bundleID: "com.example.other")) { client in
                let response = try await client.send(Self.alert())
                #expect(response.reason == .topicDisallowed)
            }
        }
    }

    @Test func aCertificateFromAnotherCAFailsTheHandshake() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            try await apns.withCertificateClient(try foreignCertificate(apns)) { client in
                let error = try await client.failure(sending: Self.alert(), ifAnswered: "a certificate the simulator's CA did not sign was accepted")
                guard case .tlsFailed = error else {
                    Issue.record("expected tlsFailed, got \(error)")
                    return
                }
            }
        }
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
