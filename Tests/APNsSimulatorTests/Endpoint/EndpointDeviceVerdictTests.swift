import APNsCore
import Foundation
import Testing

@testable import APNsSimulator

/// The devices' token verdicts as the endpoint answers them (the rules themselves are tested with the devices).
@Suite struct EndpointDeviceVerdictTests {
    @Test func unregisteredCarriesTimestamp() async throws {
        try await withEndpoint(acceptUnknownTokens: false) { harness in
            let created = try await harness.world.addDevice(
                DeviceRegistration(name: "iPhone", bundleID: EndpointHarness.bundleID, environment: "sandbox")
            )
            try await harness.withConnection { client in
                let live = try await client.send(harness.request(token: created.pushToStartToken), body: EndpointHarness.payload)
                #expect(live.status == 200)
                _ = try await harness.world.rotatePushToStartToken(deviceID: created.deviceID)
                let gone = try await client.send(harness.request(token: created.pushToStartToken), body: EndpointHarness.payload)
                #expect(gone.status == 410)
                #expect(gone.reason == "Unregistered")
                #expect(gone["content-type"] == "application/json")
                let timestamp = try #require(gone.json?["timestamp"] as? Int)
                #expect(abs(Double(timestamp) / 1000 - harness.clock.now().timeIntervalSince1970) < 5)
            }
        }
    }

    @Test func tokenForAnotherTopicOrEnvironment() async throws {
        try await withEndpoint(acceptUnknownTokens: false) { harness in
            let sandbox = try await harness.world.addDevice(
                DeviceRegistration(name: "iPhone", bundleID: "com.example.other", environment: "sandbox")
            )
            let production = try await harness.world.addDevice(
                DeviceRegistration(name: "iPhone", bundleID: EndpointHarness.bundleID, environment: "production")
            )
            try await harness.withConnection { client in
                let otherApp = try await client.send(harness.request(token: sandbox.pushToStartToken), body: EndpointHarness.payload)
                #expect(otherApp.status == 400)
                #expect(otherApp.reason == "DeviceTokenNotForTopic")
                let otherEnvironment = try await client.send(harness.request(token: production.pushToStartToken), body: EndpointHarness.payload)
                #expect(otherEnvironment.status == 400)
                #expect(otherEnvironment.reason == "BadDeviceToken")
            }
            // The production token works on the production host.
            try await harness.withConnection { second in
                let right = try await second.send(
                    harness.request(token: production.pushToStartToken, authority: "api.push.apple.com"),
                    body: EndpointHarness.payload)
                #expect(right.status == 200)
            }
        }
    }
}
