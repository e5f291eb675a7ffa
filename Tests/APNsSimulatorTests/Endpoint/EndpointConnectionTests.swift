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

    @Test func clientWithoutALPNSpeaksHTTP2WithPriorKnowledge() async throws {
        // aioapns and Pushy offer no ALPN and work against APNs.
        let harness = try await EndpointHarness.start()
        let client = try await harness.connect(alpn: [])
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        await client.close()
        await harness.stop()

        let strict = try await EndpointHarness.start { $0.acceptConnectionsWithoutALPN = false }
        await #expect(throws: (any Error).self) {
            _ = try await strict.connect(alpn: [])
        }
        await strict.stop()
    }

    @Test func hostHeaderNamesTheEnvironmentWithoutAuthority() async throws {
        // aioapns sends `host` instead of `:authority`.
        let harness = try await EndpointHarness.start()
        let client = try await harness.connect()
        var headers = harness.request().filter { $0.0 != ":authority" }
        headers.append(("host", "api.push.apple.com"))
        let answer = try await client.send(headers, body: EndpointHarness.payload)
        #expect(answer.status == 200)
        #expect(answer["apns-unique-id"] == nil, "production has no apns-unique-id")
        await client.close()
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

    @Test func resetsOfAnsweredStreamsKeepTheConnection() async throws {
        // async-http-client resets every stream whose body it does not read, after the answer. 600
        // such resets (three times NIO's default limit of 200 per 30 s) must not cost the connection.
        let harness = try await EndpointHarness.start()
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        try await client.waitForSettings(count: 2)
        for _ in 0..<6 {
            let ids = (0..<100).map { _ in client.start(harness.request(), body: EndpointHarness.payload) }
            for id in ids {
                #expect(try await client.response(id).status == 200)
                client.reset(id)
            }
        }
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        #expect(client.goAway == nil)
        #expect(!client.isClosed)
        await client.close()
        await harness.stop()
    }

    @Test func rapidResetsOfUnansweredStreamsGetGoAway() async throws {
        let harness = try await EndpointHarness.start {
            $0.maxUnansweredResets = 20
            $0.initialMaxConcurrentStreams = 100
        }
        let client = try await harness.connect()
        // 20 resets of streams the server has not answered are tolerated...
        for _ in 0..<20 { client.reset(client.open(harness.request())) }
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        #expect(client.goAway == nil)
        // ...the 21st within the window is the rapid-reset pattern.
        client.reset(client.open(harness.request()))
        let goAway = try await client.waitForGoAway()
        #expect(goAway.errorCode == 0xb) // ENHANCE_YOUR_CALM
        #expect(goAway.debugData == #"{"reason":"TooManyRequests"}"#)
        try await client.waitForClose()
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
