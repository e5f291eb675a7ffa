import APNsAuth
import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import LivePushServer
import LivePushTesting
import Testing

@testable import LivePushCLI

/// `livepush serve --keys FILE`: several provider keys with their scopes, each push signed with the key
/// of its topic, on that key's own connections (docs/apns-protocol.md §5).
@Suite(.temporaryDirectory) struct ServeKeysTests {
    static let topics = ["com.example.alpha", "com.example.bravo"]
    private var folder: URL { TemporaryDirectoryTrait.current! }

    /// Two topic-specific keys the simulator trusts, written as .p8 files beside a keys file that lists
    /// them; returns the keys file's path.
    private func writeTwoTopicKeys(trustedBy apns: SimulatedAPNs) throws -> String {
        var entries: [String] = []
        for (index, topic) in Self.topics.enumerated() {
            let keyID = "TOPICKEY0\(index)"
            let key = APNsSigningKey.generate()
            try key.write(toFile: folder.appendingPathComponent("\(keyID).p8").path, overwrite: false)
            apns.simulator.keys.register(keyID: keyID, teamID: apns.teamID, publicKey: key.publicKey, environment: .sandbox, topics: [topic])
            entries.append(#"{"keyFile": "\#(keyID).p8", "keyId": "\#(keyID)", "environment": "sandbox", "topics": ["\#(topic)"]}"#)
        }
        let path = folder.appendingPathComponent("keys.json").path
        try Data(#"{"teamId": "\#(apns.teamID)", "keys": [\#(entries.joined(separator: ","))]}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func eachTopicIsSignedWithItsOwnKeyOnItsOwnConnection() async throws {
        try await withSimulator(SimulatorOptions(bundleID: Self.topics[0], attributesTypes: [], acceptUnknownTokens: true)) { apns in
            let keysFile = try writeTwoTopicKeys(trustedBy: apns)
            let settings = try await ServeSettings.read(
                arguments: [
                    "--url", "https://127.0.0.1:\(apns.endpoint.port)", "--ca-file", apns.caCertificatePath, "--keys", keysFile,
                ],
                environment: [:])
            let keys = try ServeCommand.providerKeys(settings)
            guard case .keyring(let ring) = keys else {
                Issue.record("--keys gave \(keys), not a keyring")
                return
            }
            #expect(ring.entries.map(\.keyID) == ["TOPICKEY00", "TOPICKEY01"])
            let client = try ServeCommand.apnsClient(settings, keys: keys)
            do {
                for (index, topic) in Self.topics.enumerated() {
                    let request = try APNsRequest(
                        token: DeviceToken(hex: String(format: "%064x", index + 1)),
                        headers: .liveActivity(bundleID: topic, priority: .conservesPower),
                        body: Data(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"hp":1}}}"#.utf8))
                    let outcome = await client.deliver(request)
                    #expect(outcome.response?.status == 200, "\(topic): \(outcome.result)")
                }
                #expect(client.openedConnectionCount == 2, "one connection per key")
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
    }

    @Test func keysAndOneKeyFileTogetherAreRefused() async throws {
        let settings = try await ServeSettings.read(
            arguments: ["--environment", "sandbox", "--keys", "/tmp/k.json", "--key-file", "/tmp/a.p8"], environment: [:])
        #expect {
            try ServeCommand.providerKeys(settings)
        } throws: { error in
            (error as? ValidationError)?.message == "give either --keys (several keys) or --key-file/--key-id (one key), not both"
        }
    }

    @Test func aBadKeysFileIsNamedWithItsSetting() async throws {
        let path = folder.appendingPathComponent("keys.json").path
        try Data(#"{"keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA", "environment": "live"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        let settings = try await ServeSettings.read(
            arguments: ["--environment", "sandbox", "--team-id", "TEAM000001"], environment: ["LIVEPUSH_KEYS": path])
        #expect {
            try ServeCommand.providerKeys(settings)
        } throws: { error in
            (error as? ValidationError)?.message
                == "$LIVEPUSH_KEYS: \(path): keys[0].environment is 'live'; accepted: sandbox, production (leave it out for a key of both)"
        }
    }

    /// Issue 30, finding 8: the ids of a keys file follow the rules of `--key-id` and `--team-id`.
    @Test func keysFileIDsFollowTheFlagsRules() async throws {
        try APNsSigningKey.generate().write(toFile: folder.appendingPathComponent("a.p8").path, overwrite: false)
        let path = folder.appendingPathComponent("keys.json").path
        let cases: [(json: String, message: String)] = [
            (
                #"{"teamId": "TEAM000001", "keys": [{"keyFile": "a.p8", "keyId": "abc"}]}"#,
                "keys[0].keyId: 'abc' has lowercase letters; Apple's Key IDs are exactly 10 uppercase letters or digits (A-Z, 0-9)"
            ),
            (
                #"{"teamId": "team-x", "keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA"}]}"#,
                "keys[0].teamId: 'team-x' contains 't'; Apple's Team IDs are exactly 10 uppercase letters or digits (A-Z, 0-9)"
            ),
            (
                #"{"teamId": "TEAM000001", "keys": [{"keyFile": "a.p8", "keyId": "KEYAAAAAAA"}, {"keyFile": "a.p8", "keyId": "KEY", "teamId": "TEAM000002"}]}"#,
                "keys[1].keyId: 'KEY' is 3 characters; Apple's Key IDs are exactly 10 uppercase letters or digits (A-Z, 0-9)"
            ),
        ]
        for (json, message) in cases {
            try Data(json.utf8).write(to: URL(fileURLWithPath: path))
            let settings = try await ServeSettings.read(arguments: ["--environment", "sandbox", "--keys", path], environment: [:])
            #expect {
                try ServeCommand.providerKeys(settings)
            } throws: { error in
                (error as? ValidationError)?.message == "--keys \(path): \(message)"
            }
        }
    }
}
