import APNsAuth
import APNsClient
import APNsCore
import Foundation
import LivePushTesting
import Synchronization
import Testing

/// A client with several topic-specific keys against the simulator over real sockets
/// (docs/apns-protocol.md §2.5 and §5): each push is signed with its topic's key, on that key's connections.
@Suite struct KeyringClientTests {
    static let topicA = "com.example.alpha"
    static let topicB = "com.example.bravo"
    static let payload = Data(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":1}}}"#.utf8)

    /// Two topic-specific keys the simulator trusts, and a keyring holding both.
    private func twoTopicKeys(_ apns: SimulatedAPNs) throws -> ProviderKeyring {
        var keys: [ScopedProviderKey] = []
        for (keyID, bundleID) in [("TOPICKEYAA", Self.topicA), ("TOPICKEYBB", Self.topicB)] {
            let key = APNsSigningKey.generate()
            apns.simulator.keys.register(keyID: keyID, teamID: apns.teamID, publicKey: key.publicKey, environment: .sandbox, topics: [bundleID])
            let credentials = try ProviderCredentials(key: key, keyID: keyID, teamID: apns.teamID)
            keys.append(ScopedProviderKey(credentials, scope: ProviderKeyScope(environment: .sandbox, topics: [bundleID])))
        }
        return try ProviderKeyring(keys)
    }

    private func push(to bundleID: String, token: Int) throws -> APNsRequest {
        try APNsRequest(
            token: DeviceToken(hex: String(format: "%064x", token)), headers: .liveActivity(bundleID: bundleID, priority: .conservesPower),
            body: Self.payload)
    }

    @Test func twoTopicsWithTwoTopicKeysUseTwoConnectionsAndBothGet200() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let keyring = try twoTopicKeys(apns)
            try await withAPNsClient(apns.clientConfiguration(maximumConnections: 1), keyring: keyring) { client in
                for round in 0..<3 {
                    let alpha = await client.deliver(try push(to: Self.topicA, token: 2 * round + 1))
                    let bravo = await client.deliver(try push(to: Self.topicB, token: 2 * round + 2))
                    #expect(alpha.response?.status == 200, "\(alpha.result)")
                    #expect(bravo.response?.status == 200, "\(bravo.result)")
                    #expect(alpha.attempts == 1 && bravo.attempts == 1)
                }
                #expect(client.openedConnectionCount == 2, "one connection per key")
                #expect(client.openConnectionCount == 2)
            }
            let received = await apns.simulator.world.pushes(limit: 10)
            #expect(received.count == 6)
            #expect(received.allSatisfy { $0.status == 200 })
        }
    }

    /// The same two keys through one connection: the second key is refused, as Apple binds a connection
    /// to its first key. This is what the client's pool per key avoids.
    @Test func oneConnectionForTwoKeysIsRefusedUnrelatedKeyIdInToken() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let keyring = try twoTopicKeys(apns)
            let first = try keyring.source(forTopic: Self.topicA, environment: .sandbox)
            let second = try keyring.source(forTopic: Self.topicB, environment: .sandbox)
            let switching = SwitchingTokens([first.current().jwt, second.current().jwt])
            try await apns.withClient(apns.clientConfiguration(maximumConnections: 1), tokens: switching) { client in
                #expect(try await client.send(push(to: Self.topicA, token: 1)).status == 200)
                switching.advance()
                let refused = try await client.send(push(to: Self.topicB, token: 2))
                #expect(refused.status == 403)
                #expect(refused.reason == .unrelatedKeyIDInToken)
                #expect(refused.reason?.advice == .retryOnNewConnection)
            }
        }
    }

    @Test func aTopicNoKeyCoversIsNotSent() async throws {
        try await withSimulator(Rangers.simulator(acceptUnknownTokens: true)) { apns in
            let keyring = try twoTopicKeys(apns)
            try await withAPNsClient(apns.clientConfiguration(maximumConnections: 1), keyring: keyring) { client in
                let outcome = await client.deliver(try push(to: "com.example.charlie", token: 1))
                guard case .failure(.noProviderKey(let topic, let detail)) = outcome.result else {
                    Issue.record("expected noProviderKey, got \(outcome.result)")
                    return
                }
                #expect(topic == "com.example.charlie.push-type.liveactivity")
                #expect(detail.contains("TOPICKEYAA") && detail.contains("TOPICKEYBB"))
                #expect(outcome.attempts == 0)
                #expect(client.openedConnectionCount == 0)
            }
        }
    }
}

/// Hands out one JWT after another, as a misconfigured provider with two keys on one connection would.
final class SwitchingTokens: ProviderTokenProviding, Sendable {
    private let jwts: [String]
    private let index = Mutex(0)

    init(_ jwts: [String]) { self.jwts = jwts }

    func advance() { index.withLock { $0 += 1 } }
    func currentJWT() -> String { jwts[index.withLock { $0 }] }
    func renewJWT(rejected: String) -> String { currentJWT() }
}
