import APNsAuth
import APNsCore
import Crypto
import Foundation
import Testing

@testable import APNsSimulator

/// Scoped provider keys over real sockets (docs/apns-protocol.md §2.5 and §5): a connection is bound to
/// the key of its first accepted push; topic-specific keys push only to their topics.
@Suite struct EndpointKeyScopeTests {
    static let otherBundleID = "com.example.other"
    static let otherTopic = "com.example.other.push-type.liveactivity"

    /// A second key of the harness's team, trusted with `topics` (nil: team-scoped) and `relatedKeyID`.
    private func trustSecondKey(
        _ harness: EndpointHarness, keyID: String = "KEY0000002", topics: Set<String>? = nil, relatedKeyID: String? = nil
    ) -> String {
        let key = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
        harness.keys.register(
            keyID: keyID, teamID: EndpointHarness.teamID, publicKey: key.privateKey.publicKey, topics: topics, relatedKeyID: relatedKeyID)
        return harness.jwt(keyID: keyID, key: key)
    }

    @Test func aConnectionIsBoundToTheKeyOfItsFirstPush() async throws {
        try await withEndpoint { harness in
            let second = trustSecondKey(harness)
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                let answer = try await client.send(harness.request(jwt: second), body: EndpointHarness.payload)
                #expect(answer.status == 403)
                #expect(answer.reason == "UnrelatedKeyIdInToken")
                // The first key still works on it: the binding holds, the connection stays open.
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
            }
            // A new connection binds to the second key.
            try await harness.withConnection { fresh in
                #expect(try await fresh.send(harness.request(jwt: second), body: EndpointHarness.payload).status == 200)
                let first = try await fresh.send(harness.request(), body: EndpointHarness.payload)
                #expect(first.reason == "UnrelatedKeyIdInToken")
            }
        }
    }

    @Test func aRejectedFirstPushDoesNotBindTheConnection() async throws {
        try await withEndpoint { harness in
            let second = trustSecondKey(harness)
            try await harness.withConnection { client in
                let refused = try await client.send(harness.request(replacing: ["apns-priority": "7"]), body: EndpointHarness.payload)
                #expect(refused.reason == "BadPriority")
                #expect(try await client.send(harness.request(jwt: second), body: EndpointHarness.payload).status == 200)
            }
        }
    }

    @Test func twoTeamKeysShareAConnectionOnlyWhenConfigured() async throws {
        try await withEndpoint(configure: { $0.teamKeysShareConnections = true }) { harness in
            let second = trustSecondKey(harness)
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(try await client.send(harness.request(jwt: second), body: EndpointHarness.payload).status == 200)
                // A topic-specific key is never related to a team key.
                let topicKey = trustSecondKey(harness, keyID: "KEY0000003", topics: [EndpointHarness.topic])
                let answer = try await client.send(harness.request(jwt: topicKey), body: EndpointHarness.payload)
                #expect(answer.reason == "UnrelatedKeyIdInToken")
            }
        }
    }

    @Test func aTopicKeyAndItsRelatedKeyShareAConnection() async throws {
        try await withEndpoint(keyTopics: [EndpointHarness.topic]) { harness in
            let related = trustSecondKey(harness, topics: [EndpointHarness.topic], relatedKeyID: EndpointHarness.keyID)
            let unrelated = trustSecondKey(harness, keyID: "KEY0000003", topics: [EndpointHarness.topic])
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(try await client.send(harness.request(jwt: related), body: EndpointHarness.payload).status == 200)
                let answer = try await client.send(harness.request(jwt: unrelated), body: EndpointHarness.payload)
                #expect(answer.status == 403)
                #expect(answer.reason == "UnrelatedKeyIdInToken")
            }
        }
    }

    @Test func aTopicKeyPushesOnlyToItsTopics() async throws {
        try await withEndpoint(keyTopics: [EndpointHarness.topic]) { harness in
            try await harness.withConnection { client in
                let mine = try await client.send(harness.request(), body: EndpointHarness.payload)
                #expect(mine.status == 200)
                let other = try await client.send(harness.request(replacing: ["apns-topic": Self.otherTopic]), body: EndpointHarness.payload)
                #expect(other.status == 400)
                #expect(other.reason == "TopicDisallowed")
            }
        }
        try await withEndpoint(keyTopics: [EndpointHarness.topic], configure: { $0.keyTopicReason = .invalidProviderToken }) { harness in
            try await harness.withConnection { client in
                let other = try await client.send(harness.request(replacing: ["apns-topic": Self.otherTopic]), body: EndpointHarness.payload)
                #expect(other.status == 403)
                #expect(other.reason == "InvalidProviderToken")
            }
        }
    }
}
