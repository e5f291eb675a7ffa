import APNsCore
import Foundation
import NIOHTTP2
import Testing
@testable import APNsSimulator

@Suite struct EndpointConnectionTests {
    @Test func http11OnlyClientIsRefusedAtConnectionTime() async throws {
        let harness = try await EndpointHarness.start()
        await #expect(throws: (any Error).self) {
            _ = try await harness.connect(alpn: ["http/1.1"])
        }
        await harness.stop()
    }

    @Test func streamLimitRisesAfterFirstAcceptedPush() async throws {
        let harness = try await EndpointHarness.start()
        let client = try await harness.connect()
        #expect(client.maxConcurrentStreams == 1)
        // A rejected push does not raise the limit.
        #expect(try await client.send(harness.request(replacing: ["apns-topic": nil]), body: EndpointHarness.payload).status == 400)
        #expect(client.maxConcurrentStreams == 1)
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        try await client.waitForSettings(count: 2)
        #expect(client.maxConcurrentStreams == 1000)
        // Many streams at once now work.
        let ids = (0..<50).map { _ in client.start(harness.request(), body: EndpointHarness.payload) }
        for id in ids { #expect(try await client.response(id).status == 200) }
        await client.close()
        await harness.stop()
    }

    @Test func configuredStreamLimit() async throws {
        let harness = try await EndpointHarness.start { $0.maxConcurrentStreams = 250 }
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        try await client.waitForSettings(count: 2)
        #expect(client.maxConcurrentStreams == 250)
        await client.close()
        await harness.stop()
    }

    @Test func idleTimeoutSendsGoAway() async throws {
        let harness = try await EndpointHarness.start { $0.idleTimeout = 0.2 }
        let client = try await harness.connect()
        let goAway = try await client.waitForGoAway()
        #expect(goAway.debugData == #"{"reason":"IdleTimeout"}"#)
        try await client.waitForClose()
        await harness.stop()
    }

    @Test func shutdownSendsGoAwayShutdown() async throws {
        let harness = try await EndpointHarness.start()
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        await harness.stop()
        let goAway = try await client.waitForGoAway()
        #expect(goAway.debugData == #"{"reason":"Shutdown"}"#)
        #expect(goAway.lastStreamID == 1)
        try await client.waitForClose()
    }

    @Test func caFileIsReusedAndKeysArePrivate() throws {
        let directory = NSTemporaryDirectory() + "livepush-ca-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try SimulatorCertificates.loadOrCreate(directory: directory)
        let second = try SimulatorCertificates.loadOrCreate(directory: directory)
        #expect(first.caCertificatePEM == second.caCertificatePEM)
        #expect(first.serverCertificatePEM == second.serverCertificatePEM)
        #expect(first.caCertificatePath == directory + "/ca.pem")
        #expect(try String(contentsOfFile: first.caCertificatePath, encoding: .utf8) == first.caCertificatePEM)
        for key in ["ca-key.pem", "server-key.pem"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + key)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
        // A new name reissues the server certificate under the same CA.
        let third = try SimulatorCertificates.loadOrCreate(directory: directory, extraNames: ["push.test.internal"])
        #expect(third.caCertificatePEM == first.caCertificatePEM)
        #expect(third.serverCertificatePEM != first.serverCertificatePEM)
        #expect(third.serverNames.contains("push.test.internal"))
        // A stale server certificate (expiring within the renewal margin) is reissued too.
        let later = try SimulatorCertificates.loadOrCreate(
            directory: directory, extraNames: ["push.test.internal"], now: Date().addingTimeInterval(800 * 86400)
        )
        #expect(later.caCertificatePEM == first.caCertificatePEM)
        #expect(later.serverCertificatePEM != third.serverCertificatePEM)
    }

    @Test func dataDirectoryDefaults() {
        #expect(SimulatorDataDirectory.defaultPath(environment: ["LIVEPUSH_SIMULATOR_DIR": "/x/y", "HOME": "/home/a"]) == "/x/y")
        #expect(SimulatorDataDirectory.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.livepush/simulator")
        #expect(SimulatorDataDirectory.defaultPath(environment: [:]).hasSuffix("/.livepush/simulator"))
    }
}
