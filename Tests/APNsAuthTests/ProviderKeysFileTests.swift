import APNsAuth
import APNsCore
import Foundation
import LivePushTesting
import Testing

/// Reading several scoped keys from a JSON file (`livepush serve --keys`).
@Suite(.temporaryDirectory) struct ProviderKeysFileTests {
    private var folder: URL { TemporaryDirectoryTrait.current! }

    /// Writes a fresh key as `name` in the test's folder.
    private func writeKey(_ name: String) throws {
        try APNsSigningKey.generate().write(toFile: folder.appendingPathComponent(name).path, overwrite: false)
    }

    private func writeFile(_ json: String) throws -> String {
        let path = folder.appendingPathComponent("keys.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func refusal(_ json: String, defaultTeamID: String? = nil) throws -> String? {
        let path = try writeFile(json)
        do throws(ProviderKeysFileError) {
            _ = try ProviderKeysFile.read(path: path, defaultTeamID: defaultTeamID)
            return nil
        } catch {
            #expect(error.path == path)
            return [error.field, error.rule].compactMap { $0 }.joined(separator: " ")
        }
    }

    @Test func readsEachKeyWithItsScopeAndRelativeFiles() throws {
        try writeKey("rangers.p8")
        try writeKey("team.p8")
        let path = try writeFile(
            """
            {"teamId": "TEAM000001", "keys": [
              {"keyFile": "rangers.p8", "keyId": "RANGERSKEY", "environment": "production", "topics": ["com.example.rangers"]},
              {"keyFile": "\(folder.appendingPathComponent("team.p8").path)", "keyId": "TEAMKEY001", "teamId": "TEAM000002"}
            ]}
            """)
        let keys = try ProviderKeysFile.read(path: path)
        #expect(keys.map(\.credentials.keyID) == ["RANGERSKEY", "TEAMKEY001"])
        #expect(keys.map(\.credentials.teamID) == ["TEAM000001", "TEAM000002"])
        #expect(keys[0].scope == ProviderKeyScope(environment: .production, topics: ["com.example.rangers"]))
        #expect(keys[1].scope == .unrestricted)
        let keyring = try ProviderKeyring(keys)
        #expect(try keyring.entry(forTopic: "com.example.rangers.push-type.liveactivity", environment: .production).keyID == "RANGERSKEY")
        #expect(try keyring.entry(forTopic: "com.example.other", environment: .sandbox).keyID == "TEAMKEY001")
    }

    @Test func theTeamComesFromTheCommandLineWhenTheFileHasNone() throws {
        try writeKey("a.p8")
        let path = try writeFile(#"{"keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA"}]}"#)
        #expect(try ProviderKeysFile.read(path: path, defaultTeamID: "TEAMFLAG01").map(\.credentials.teamID) == ["TEAMFLAG01"])
        #expect(
            try refusal(#"{"keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA"}]}"#)
                == "keys[0].teamId is required when the file has no top-level teamId (and no --team-id is given)")
    }

    @Test func eachMistakeNamesItsFieldAndWhatIsAccepted() throws {
        try writeKey("a.p8")
        #expect(try refusal("[1]")?.hasPrefix("is not a JSON object") == true)
        #expect(try refusal(#"{"teamId": "T", "key": []}"#) == "key is not a field of a keys file; accepted: keys, teamId")
        #expect(try refusal(#"{"teamId": "TEAM000001"}"#) == "keys is required: a list of keys")
        #expect(try refusal(#"{"teamId": "TEAM000001", "keys": []}"#) == "keys is empty; list at least one provider key")
        // A misspelt `topic` must not quietly make a topic-specific key team-scoped.
        #expect(
            try refusal(#"{"teamId": "TEAM000001", "keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA", "topic": ["x"]}]}"#)
                == "keys[0].topic is not a field of a key; accepted: environment, keyFile, keyId, teamId, topics")
        #expect(
            try refusal(#"{"teamId": "TEAM000001", "keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA", "environment": "prod"}]}"#)
                == "keys[0].environment is 'prod'; accepted: sandbox, production (leave it out for a key of both)")
        #expect(try refusal(#"{"teamId": "TEAM000001", "keys": [{"keyFile": "a.p8"}]}"#) == "keys[0].keyId is required")
        #expect(
            try refusal(#"{"teamId": "TEAM000001", "keys": [{"keyFile": "a.p8", "keyId": 7}]}"#)
                == "keys[0].keyId must be a non-empty string, not 7")
        #expect(
            try refusal(#"{"teamId": "TEAM000001", "keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA", "topics": "x"}]}"#)
                == "keys[0].topics must be a list of bundle ids")
        let missing = try refusal(#"{"teamId": "TEAM000001", "keys": [{"keyFile": "none.p8", "keyId": "KEYAAAAAAA"}]}"#)
        #expect(missing?.hasPrefix("keys[0] ") == true && missing?.contains("none.p8") == true, "\(missing ?? "")")
    }

    @Test func aMissingFileIsNamed() {
        let path = folder.appendingPathComponent("absent.json").path
        #expect(throws: ProviderKeysFileError.self) { try ProviderKeysFile.read(path: path) }
    }
}
