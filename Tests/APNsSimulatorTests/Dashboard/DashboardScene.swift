import APNsAuth
import APNsCore
import Crypto
import Foundation
import LiveActivity
import LivePushTesting
import Logging

@testable import APNsSimulator

/// Runs `body` with a whole simulator (LivePushTesting's, for the app ``DashboardScene/bundleID``) and an
/// HTTP/2 connection that sends pushes to it as a provider does; closes and stops both afterwards, whatever
/// `body` does.
@discardableResult
func withDashboardScene<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: (DashboardScene) async throws -> Result
) async throws -> Result {
    let options = SimulatorOptions(bundleID: DashboardScene.bundleID, attributesTypes: []) { $0.shutdownGracePeriod = 1 }
    return try await withSimulator(options) { apns in
        let connect = { try await RawHTTP2Client.connect(port: apns.simulator.apnsPort ?? 0, caPEM: apns.simulator.certificates.caCertificatePEM) }
        return try await withRawHTTP2Client(connect) { client in
            let jwt = ProviderToken.sign(key: apns.signingKey, keyID: apns.keyID, teamID: apns.teamID, issuedAt: Date()).jwt
            return try await body(DashboardScene(simulator: apns.simulator, client: client, jwt: jwt))
        }
    }
}

/// A whole simulator (APNs endpoint + control port with the dashboard) on ephemeral loopback ports, a
/// trusted provider key, and an HTTP/2 connection that sends pushes as a provider does
/// (``withDashboardScene(isolation:_:)``).
struct DashboardScene {
    static let bundleID = "com.example.emojirangers"
    static let topic = "com.example.emojirangers.push-type.liveactivity"

    let simulator: Simulator
    let client: RawHTTP2Client
    let jwt: String

    var world: DeviceWorld { simulator.world }
    var dashboardURL: String { "http://127.0.0.1:\(simulator.controlPort ?? 0)/dashboard" }

    /// Sends a Live Activity push over HTTP/2 to the simulator's APNs endpoint.
    @discardableResult
    func push(to token: String, priority: Int, aps: JSONValue) async throws -> RawResponse {
        let headers: [(String, String)] = [
            (":method", "POST"), (":scheme", "https"), (":path", "/3/device/\(token)"), (":authority", "localhost"),
            ("authorization", "bearer \(jwt)"), ("apns-push-type", "liveactivity"), ("apns-topic", Self.topic),
            ("apns-priority", String(priority)),
        ]
        return try await client.send(headers, body: Array(JSONValue.object(["aps": aps]).serialized()))
    }

    /// Sends an Emoji Rangers push (`event`, at `timestamp`) whose content state is the hero's `health` and
    /// `description`, with the other `aps` fields in `extra` (alert, stale or dismissal date).
    @discardableResult
    func pushAdventure(
        _ event: String = "update", to token: String, priority: Int, at timestamp: Double, health: JSONValue, _ description: String,
        extra: [String: JSONValue] = [:]
    ) async throws -> RawResponse {
        let aps: [String: JSONValue] = [
            "event": .string(event), "timestamp": .number(timestamp),
            "content-state": ["currentHealthLevel": health, "eventDescription": .string(description)],
        ]
        return try await push(to: token, priority: priority, aps: .object(aps.merging(extra) { $1 }))
    }

    /// Waits until the push log holds `count` entries (the endpoint records each exchange after answering).
    func waitForLog(count: Int) async throws -> [PushLogEntry] {
        var log: [PushLogEntry] = []
        for _ in 0..<600 {
            log = await world.pushes()
            if log.count >= count { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return log
    }
}
