import APNsCore
import Foundation
import LivePushTesting
import NIOHTTP2
import Testing

@testable import APNsSimulator

@Suite struct EndpointConnectionTests {
    @Test func http11OnlyClientIsRefusedAtConnectionTime() async throws {
        try await withEndpoint { harness in
            await #expect(throws: (any Error).self) {
                try await harness.withConnection(alpn: ["http/1.1"]) { _ in }
            }
        }
    }

    @Test func clientWithoutALPNSpeaksHTTP2WithPriorKnowledge() async throws {
        // aioapns and Pushy offer no ALPN and work against APNs.
        try await withEndpoint { harness in
            try await harness.withConnection(alpn: []) { client async throws in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
            }
        }

        try await withEndpoint(configure: { $0.acceptConnectionsWithoutALPN = false }) { strict in
            await #expect(throws: (any Error).self) {
                try await strict.withConnection(alpn: []) { _ in }
            }
        }
    }

    @Test func hostHeaderNamesTheEnvironmentWithoutAuthority() async throws {
        // aioapns sends `host` instead of `:authority`.
        try await withEndpoint { harness in
            try await harness.withConnection { client in
                var headers = harness.request().filter { $0.0 != ":authority" }
                headers.append(("host", "api.push.apple.com"))
                let answer = try await client.send(headers, body: EndpointHarness.payload)
                #expect(answer.status == 200)
                #expect(answer["apns-unique-id"] == nil, "production has no apns-unique-id")
            }
        }
    }

    @Test func streamLimitRisesAfterFirstAcceptedPush() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
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
            }
        }
    }

    @Test func configuredStreamLimit() async throws {
        try await withEndpoint(configure: { $0.maxConcurrentStreams = 250 }) { harness in
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                try await client.waitForSettings(count: 2)
                #expect(client.maxConcurrentStreams == 250)
            }
        }
    }

    @Test func resetsOfAnsweredStreamsKeepTheConnection() async throws {
        // async-http-client resets every stream whose body it does not read, after the answer. 600
        // such resets (three times NIO's default limit of 200 per 30 s) must not cost the connection.
        try await withEndpoint { harness in
            try await harness.withConnection { client in
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
            }
        }
    }

    @Test func rapidResetsOfUnansweredStreamsGetGoAway() async throws {
        try await withEndpoint(configure: {
            $0.maxUnansweredResets = 20
            $0.initialMaxConcurrentStreams = 100
        }) { harness in
            try await harness.withConnection { client in
                // 20 resets of streams the server has not answered are tolerated...
                for _ in 0..<20 { client.reset(client.open(harness.request())) }
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(client.goAway == nil)
                // ...the 21st within the window is the rapid-reset pattern.
                client.reset(client.open(harness.request()))
                let goAway = try await client.waitForGoAway()
                #expect(goAway.errorCode == 0xb)  // ENHANCE_YOUR_CALM
                #expect(goAway.debugData == #"{"reason":"TooManyRequests"}"#)
                try await client.waitForClose()
            }
        }
    }

    @Test func idleTimeoutSendsGoAway() async throws {
        try await withEndpoint(configure: { $0.idleTimeout = 0.2 }) { harness in
            try await harness.withConnection { client in
                let goAway = try await client.waitForGoAway()
                #expect(goAway.debugData == #"{"reason":"IdleTimeout"}"#)
                try await client.waitForClose()
            }
        }
    }

    @Test func shutdownSendsGoAwayShutdown() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                // What this test is about, not teardown: the endpoint shutting down under an open connection.
                await harness.stop()
                let goAway = try await client.waitForGoAway()
                #expect(goAway.debugData == #"{"reason":"Shutdown"}"#)
                #expect(goAway.lastStreamID == 1)
                try await client.waitForClose()
            }
        }
    }

    @Test func caFileIsReusedAndKeysArePrivate() async throws {
        try await withTemporaryDirectory(prefix: "livepush-ca") { folder in
            let directory = folder.appendingPathComponent("ca").path
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
    }

    @Test func dataDirectoryDefaults() {
        #expect(SimulatorDataDirectory.defaultPath(environment: ["LIVEPUSH_SIMULATOR_DIR": "/x/y", "HOME": "/home/a"]) == "/x/y")
        #expect(SimulatorDataDirectory.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.livepush/simulator")
        #expect(SimulatorDataDirectory.defaultPath(environment: [:]).hasSuffix("/.livepush/simulator"))
    }
}
