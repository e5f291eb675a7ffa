import APNsAuth
import APNsCore
import Crypto
import Foundation
import LivePushTesting
import Testing

@testable import APNsSimulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct SimulatorAssemblyTests {
    @Test func startsBothServersOnEphemeralPortsAndShutsDownGracefully() async throws {
        try await withTemporaryDirectory(prefix: "livepush-sim") { folder in
            let directory = folder.path
            var configuration = SimulatorConfiguration()
            configuration.endpoint.port = 0
            configuration.controlPort = 0
            configuration.dataDirectory = directory
            configuration.deviceRules.acceptUnknownTokens = true
            configuration.shutdownGracePeriod = 1
            let key = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
            let keys = TrustedKeys()
            keys.register(keyID: EndpointHarness.keyID, teamID: EndpointHarness.teamID, publicKey: key.privateKey.publicKey)
            // The assembly itself is under test, so this test builds it; a shutdown is all it needs to end.
            try await withScopedResource {
                try Simulator(configuration: configuration, keys: keys)
            } stop: { simulator in
                await simulator.shutdown()
            } _: { simulator in
                #expect(simulator.caCertificatePath == directory + "/ca.pem")
                #expect(simulator.apnsPort == nil)
                try await simulator.start()
                let apnsPort = try #require(simulator.apnsPort)
                let controlPort = try #require(simulator.controlPort)
                #expect(apnsPort > 0 && controlPort > 0 && apnsPort != controlPort)

                // The control API answers over plain HTTP and lists the trusted key.
                let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(controlPort)/v1/keys")!)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(String(decoding: data, as: UTF8.self).contains(EndpointHarness.keyID))

                // The APNs endpoint accepts a push signed with the trusted key.
                let ca = try String(contentsOfFile: simulator.caCertificatePath, encoding: .utf8)
                try await withRawHTTP2Client({ try await RawHTTP2Client.connect(port: apnsPort, caPEM: ca) }) { client in
                    let jwt = ProviderToken.sign(key: key, keyID: EndpointHarness.keyID, teamID: EndpointHarness.teamID, issuedAt: Date()).jwt
                    let answer = try await client.send(
                        [
                            (":method", "POST"), (":scheme", "https"), (":path", "/3/device/" + EndpointHarness.token), (":authority", "localhost"),
                            ("authorization", "bearer " + jwt), ("apns-push-type", "liveactivity"), ("apns-topic", EndpointHarness.topic),
                        ], body: EndpointHarness.payload)
                    #expect(answer.status == 200)

                    // What this test is about, not teardown: the graceful shutdown, seen from the connection.
                    await simulator.shutdown()
                    let goAway = try await client.waitForGoAway()
                    #expect(goAway.debugData == #"{"reason":"Shutdown"}"#)
                    #expect(simulator.controlPort == nil)
                    #expect(simulator.apnsPort == nil)
                }
            }
        }
    }
}
