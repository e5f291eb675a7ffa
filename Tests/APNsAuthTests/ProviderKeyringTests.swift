import APNsAuth
import APNsCore
import Foundation
import Testing

/// Choosing the key for a topic and environment (docs/apns-protocol.md §5).
@Suite struct ProviderKeyringTests {
    private func key(_ keyID: String, environment: APNsEnvironment? = nil, topics: Set<String>? = nil) throws -> ScopedProviderKey {
        ScopedProviderKey(
            try ProviderCredentials(key: .generate(), keyID: keyID, teamID: "TEAM000001"),
            scope: ProviderKeyScope(environment: environment, topics: topics))
    }

    @Test func aTopicKeyWinsOverATeamKeyAndAnEnvironmentKeyOverAKeyOfBoth() throws {
        let keyring = try ProviderKeyring([
            key("OLDTEAMKEY"),
            key("TEAMPROD01", environment: .production),
            key("RANGERSKEY", environment: .production, topics: ["com.example.rangers"]),
            key("WIDGETSKEY", environment: .production, topics: ["com.example.other.push-type.widgets"]),
        ])
        let rangers = "com.example.rangers.push-type.liveactivity"
        #expect(try keyring.entry(forTopic: rangers, environment: .production).keyID == "RANGERSKEY")
        #expect(try keyring.entry(forTopic: "com.example.rangers", environment: .production).keyID == "RANGERSKEY")
        #expect(try keyring.entry(forTopic: rangers, environment: .sandbox).keyID == "OLDTEAMKEY")
        #expect(try keyring.entry(forTopic: "com.example.other", environment: .production).keyID == "TEAMPROD01")
        #expect(try keyring.entry(forTopic: "com.example.other.push-type.widgets", environment: .production).keyID == "WIDGETSKEY")
        #expect(try keyring.entry(forTopic: "com.example.other.push-type.controls", environment: .production).keyID == "TEAMPROD01")
        // An endpoint of unknown environment (the simulator) takes the key's own.
        #expect(try keyring.entry(forTopic: rangers, environment: nil).keyID == "RANGERSKEY")
    }

    @Test func noKeyForATopicNamesEveryKeysScope() throws {
        let keyring = try ProviderKeyring([key("RANGERSKEY", environment: .sandbox, topics: ["com.example.rangers"])])
        #expect(throws: ProviderKeyringError.self) { try keyring.entry(forTopic: "com.example.rangers", environment: .production) }
        do {
            _ = try keyring.entry(forTopic: "com.example.other", environment: .sandbox)
            Issue.record("expected noKeyForTopic")
        } catch {
            #expect(error.description.contains("com.example.other"))
            #expect(error.description.contains("RANGERSKEY: topics com.example.rangers, sandbox"))
        }
    }

    @Test func eachKeyGetsItsOwnTokenSource() throws {
        let keyring = try ProviderKeyring([key("KEYAAAAAAA", topics: ["a.b"]), key("KEYBBBBBBB", topics: ["c.d"])])
        let first = try keyring.source(forTopic: "a.b", environment: .sandbox).current()
        let second = try keyring.source(forTopic: "c.d", environment: .sandbox).current()
        #expect(first.keyID == "KEYAAAAAAA" && second.keyID == "KEYBBBBBBB")
        #expect(try keyring.source(forTopic: "a.b", environment: .sandbox).current().jwt == first.jwt, "one token per key, reused")
    }

    @Test func badKeyListsAreRefusedWithTheirRule() throws {
        #expect(throws: ProviderKeyringError.noKeys) { try ProviderKeyring([]) }
        #expect(throws: ProviderKeyringError.duplicateKeyID("KEYAAAAAAA")) {
            try ProviderKeyring([key("KEYAAAAAAA"), key("KEYAAAAAAA", topics: ["a.b"])])
        }
        #expect(throws: ProviderKeyringError.emptyTopics(keyID: "KEYAAAAAAA")) { try ProviderKeyring([key("KEYAAAAAAA", topics: [])]) }
        let many = Set((0...400).map { "com.example.app\($0)" })
        #expect(throws: ProviderKeyringError.tooManyTopics(keyID: "KEYAAAAAAA", count: 401)) {
            try ProviderKeyring([key("KEYAAAAAAA", topics: many)])
        }
        #expect(throws: ProviderKeyringError.badTopic(keyID: "KEYAAAAAAA", topic: "a b")) {
            try ProviderKeyring([key("KEYAAAAAAA", topics: ["a b"])])
        }
        #expect(throws: ProviderKeyringError.tokenSource(.refreshIntervalOutOfRange(60))) {
            try ProviderKeyring([key("KEYAAAAAAA")], refreshInterval: 60)
        }
    }
}
