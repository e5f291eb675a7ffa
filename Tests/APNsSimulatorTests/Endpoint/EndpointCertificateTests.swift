import APNsCore
import Foundation
import LivePushTesting
import NIOSSL
import Testing

@testable import APNsSimulator

/// Certificate-based provider connections, over real sockets with real TLS client certificates issued
/// by the endpoint's CA (`ProviderCertificate`).
@Suite struct EndpointCertificateTests {
    static let alertPayload = Array(#"{"aps":{"alert":{"title":"Hello"}}}"#.utf8)

    /// An alert push over a certificate connection: no `authorization`, the bundle id as the topic.
    private func alert(
        _ harness: EndpointHarness, topic: String? = EndpointHarness.bundleID, authority: String = "localhost",
        extra: [(String, String)] = []
    ) -> [(String, String)] {
        harness.request(
            authority: authority,
            replacing: [
                "authorization": nil, "apns-push-type": "alert", "apns-topic": topic, "apns-priority": "10",
            ], extra: extra)
    }

    @Test func alertOverACertificateIsAccepted() async throws {
        try await withEndpoint { harness async throws in
            try await harness.withConnection(certificate: try harness.certificate()) { client async throws in
                #expect(try await client.send(alert(harness), body: Self.alertPayload).status == 200)
                // The topic defaults to the certificate's bundle id.
                #expect(try await client.send(alert(harness, topic: nil), body: Self.alertPayload).status == 200)
                // The authorization header is ignored on a certificate connection.
                let ignored = alert(harness, extra: [("authorization", "bearer not.a.jwt")])
                #expect(try await client.send(ignored, body: Self.alertPayload).status == 200)
            }
            let pushes = await harness.world.pushes(limit: 10)
            #expect(pushes.filter { $0.status == 200 }.count == 3)
        }
    }

    @Test func liveActivityOverACertificateIsTopicDisallowed() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection(certificate: try harness.certificate()) { client in
                let liveActivity = harness.request(replacing: ["authorization": nil])
                let answer = try await client.send(liveActivity, body: EndpointHarness.payload)
                #expect(answer.status == 400)
                #expect(answer.reason == "TopicDisallowed")
                // An alert push to the Live Activity topic is refused the same way.
                let toLiveActivityTopic = alert(harness, topic: EndpointHarness.topic)
                #expect(try await client.send(toLiveActivityTopic, body: Self.alertPayload).reason == "TopicDisallowed")
            }
        }
    }

    @Test func liveActivityOverACertificateIsASetting() async throws {
        try await withEndpoint(configure: { $0.liveActivityOverCertificateReason = nil }) { harness async throws in
            try await harness.withConnection(certificate: try harness.certificate()) { client async throws in
                let liveActivity = harness.request(replacing: ["authorization": nil])
                #expect(try await client.send(liveActivity, body: EndpointHarness.payload).status == 200)
                let otherApp = harness.request(replacing: ["authorization": nil, "apns-topic": "com.example.other.push-type.liveactivity"])
                #expect(try await client.send(otherApp, body: EndpointHarness.payload).reason == "TopicDisallowed")
            }
        }
    }

    @Test func anotherAppsTopicIsTopicDisallowed() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection(certificate: try harness.certificate()) { client in
                let answer = try await client.send(alert(harness, topic: "com.example.other"), body: Self.alertPayload)
                #expect(answer.status == 400)
                #expect(answer.reason == "TopicDisallowed")
                // Syntax still comes first: a malformed topic is BadTopic.
                #expect(try await client.send(alert(harness, topic: "com.example scores"), body: Self.alertPayload).reason == "BadTopic")
            }
        }
    }

    @Test func theOtherEnvironmentIsBadCertificateEnvironment() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection(certificate: try harness.certificate(environment: .production)) { production in
                let answer = try await production.send(alert(harness), body: Self.alertPayload)
                #expect(answer.status == 403)
                #expect(answer.reason == "BadCertificateEnvironment")
                // The same certificate is fine where :authority names the production host.
                #expect(try await production.send(alert(harness, authority: "api.push.apple.com"), body: Self.alertPayload).status == 200)
            }
            try await harness.withConnection(certificate: try harness.certificate()) { sandbox async throws in
                #expect(
                    try await sandbox.send(alert(harness, authority: "api.push.apple.com"), body: Self.alertPayload).reason
                        == "BadCertificateEnvironment")
            }
        }
    }

    @Test func aCertificateFromAnotherCAIsRefusedInTheHandshake() async throws {
        try await withEndpoint { harness in
            try await withTemporaryDirectory(prefix: "livepush-other-ca") { folder in
                let otherDirectory = folder.appendingPathComponent("ca").path
                let foreign = try ProviderCertificate.issue(
                    bundleID: EndpointHarness.bundleID, environment: .sandbox, directory: otherDirectory
                )
                await #expect(throws: (any Error).self) {
                    try await harness.withConnection(certificate: foreign) { client in
                        // TLS 1.3 can finish the client's side of the handshake before the server's alert arrives.
                        _ = try await client.send(alert(harness), body: Self.alertPayload, timeout: .seconds(5))
                    }
                }
            }
        }
    }

    @Test func withoutACertificateTheConnectionStillNeedsAProviderToken() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
                let answer = try await client.send(alert(harness), body: Self.alertPayload)
                #expect(answer.status == 403)
                #expect(answer.reason == "MissingProviderToken")
                let signed = harness.request(replacing: ["apns-push-type": "alert", "apns-topic": EndpointHarness.bundleID])
                #expect(try await client.send(signed, body: Self.alertPayload).status == 200)
            }
        }
    }

    @Test func aCertificateOfTheCAThatIsNotAPushCertificateIsBadCertificate() throws {
        let server = try NIOSSLCertificate.fromPEMBytes(Array(EndpointHarness.certificates.0.serverCertificatePEM.utf8))[0]
        let certificate = ClientCertificate(der: try server.toDERBytes())
        #expect(certificate == .notAProviderCertificate)
        #expect(throws: Rejection(.badCertificate)) { try certificate.authenticate(environment: .sandbox) }
    }

    @Test func anIssuedCertificateCarriesTheAppAsApplesDo() throws {
        let directory = EndpointHarness.certificates.1
        let issued = try ProviderCertificate.issue(bundleID: "com.example.scores", environment: .production, directory: directory)
        let parsed = try NIOSSLCertificate.fromPEMBytes(Array(issued.certificatePEM.utf8))[0]
        let identity = ProviderCertificateIdentity(
            bundleID: "com.example.scores", topics: ["com.example.scores"], environments: [.production]
        )
        #expect(ClientCertificate(der: try parsed.toDERBytes()) == .provider(identity))
        #expect(issued.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(throws: CertificateStoreError.invalidBundleID("com example")) {
            try ProviderCertificate.issue(bundleID: "com example", environment: .sandbox, directory: directory)
        }
    }
}
