import APNsCore
import Crypto
import Foundation
import Testing

@testable import APNsSimulator

@Suite struct TrustedKeysTests {
    @Test func registersPublicKeyPEMAndP8() throws {
        let keys = TrustedKeys()
        let privateKey = P256.Signing.PrivateKey()
        try keys.register(keyID: "KEY0000001", teamID: "TEAM000001", pem: privateKey.pemRepresentation)
        try keys.register(
            keyID: "KEY0000002", teamID: "TEAM000001", pem: privateKey.publicKey.pemRepresentation,
            environment: .production, topics: ["com.example.app.push-type.liveactivity"])
        let fromP8 = try #require(keys.lookup(keyID: "KEY0000001"))
        #expect(fromP8.publicKeyPEM == privateKey.publicKey.pemRepresentation)
        #expect(!fromP8.publicKeyPEM.contains("PRIVATE"))
        #expect(fromP8.allows(environment: .sandbox) && fromP8.allows(environment: .production))
        let scoped = try #require(keys.lookup(keyID: "KEY0000002"))
        #expect(!scoped.allows(environment: .sandbox))
        #expect(scoped.allows(topic: "com.example.app.push-type.liveactivity"))
        #expect(!scoped.allows(topic: "com.other.app.push-type.liveactivity"))
        #expect(keys.all().map(\.keyID) == ["KEY0000001", "KEY0000002"])
        #expect(keys.lookup(keyID: "NOPE") == nil)
        #expect(keys.remove(keyID: "KEY0000001"))
        #expect(!keys.remove(keyID: "KEY0000001"))
    }

    @Test func refusesBadInput() {
        let keys = TrustedKeys()
        #expect(throws: TrustedKeys.RegistrationError.unreadablePEM) {
            try keys.register(keyID: "KEY0000001", teamID: "TEAM000001", pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----")
        }
        let pem = P256.Signing.PrivateKey().publicKey.pemRepresentation
        #expect(throws: TrustedKeys.RegistrationError.emptyKeyID) { try keys.register(keyID: "", teamID: "T", pem: pem) }
        #expect(throws: TrustedKeys.RegistrationError.emptyTeamID) { try keys.register(keyID: "K", teamID: "", pem: pem) }
        #expect(throws: TrustedKeys.RegistrationError.emptyTopics) { try keys.register(keyID: "K", teamID: "T", pem: pem, topics: []) }
    }

    @Test func codableRoundTrip() throws {
        let key = TrustedKey(
            keyID: "KEY0000001", teamID: "TEAM000001", publicKey: P256.Signing.PrivateKey().publicKey,
            environment: .sandbox, topics: ["a", "b"])
        let data = try JSONEncoder().encode(key)
        let decoded = try JSONDecoder().decode(TrustedKey.self, from: data)
        #expect(decoded == key)
        #expect(decoded.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
    }
}
