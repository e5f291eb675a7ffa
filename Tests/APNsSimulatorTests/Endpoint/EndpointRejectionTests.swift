import APNsAuth
import APNsCore
import Crypto
import Foundation
import Testing
@testable import APNsSimulator

/// One test per reason the endpoint itself produces (docs/apns-protocol.md §4), over real sockets.
@Suite struct EndpointRejectionTests {
    /// Sends one request on a fresh connection and checks the error shape: status, JSON reason,
    /// content-type and apns-id.
    private func expectRejection(
        _ harness: EndpointHarness, _ headers: [(String, String)], body: [UInt8] = EndpointHarness.payload,
        status: Int, reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let client = try await harness.connect()
        let answer = try await client.send(headers, body: body)
        #expect(answer.status == status, sourceLocation: sourceLocation)
        #expect(answer.reason == reason, sourceLocation: sourceLocation)
        #expect(answer["content-type"] == "application/json", sourceLocation: sourceLocation)
        #expect(answer["apns-id"].flatMap { APNsID.parse($0) } != nil, sourceLocation: sourceLocation)
        #expect(answer["apns-unique-id"] == nil, sourceLocation: sourceLocation)
        #expect(answer.json?["timestamp"] == nil, sourceLocation: sourceLocation)
        await client.close()
    }

    @Test func methodNotAllowed() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(method: "GET"), body: [], status: 405, reason: "MethodNotAllowed")
        try await expectRejection(harness, harness.request(method: "PUT"), status: 405, reason: "MethodNotAllowed")
        await harness.stop()
    }

    @Test func badPathAndMissingDeviceToken() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(path: "/3/devices/abcd"), status: 404, reason: "BadPath")
        try await expectRejection(harness, harness.request(path: "/4/device/abcd"), status: 404, reason: "BadPath")
        try await expectRejection(harness, harness.request(path: "/3/device/abcd/extra"), status: 404, reason: "BadPath")
        try await expectRejection(harness, harness.request(path: "/3/device/"), status: 400, reason: "MissingDeviceToken")
        await harness.stop()
    }

    @Test func duplicateHeaders() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(extra: [("apns-topic", EndpointHarness.topic)]),
                                  status: 400, reason: "DuplicateHeaders")
        try await expectRejection(harness, harness.request(extra: [("x-custom", "1"), ("x-custom", "2")]),
                                  status: 400, reason: "DuplicateHeaders")
        await harness.stop()
    }

    @Test func missingProviderToken() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(replacing: ["authorization": nil]), status: 403, reason: "MissingProviderToken")
        try await expectRejection(harness, harness.request(replacing: ["authorization": ""]), status: 403, reason: "MissingProviderToken")
        try await expectRejection(harness, harness.request(replacing: ["authorization": "bearer "]), status: 403, reason: "MissingProviderToken")
        // Auth comes before the token: a junk token without auth is still MissingProviderToken.
        try await expectRejection(harness, harness.request(token: "zz", replacing: ["authorization": nil]), status: 403, reason: "MissingProviderToken")
        await harness.stop()
    }

    @Test func invalidProviderToken() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(jwt: "not.a.jwt"), status: 403, reason: "InvalidProviderToken")
        try await expectRejection(harness, harness.request(jwt: harness.jwt(keyID: "UNKNOWN001")), status: 403, reason: "InvalidProviderToken")
        try await expectRejection(harness, harness.request(jwt: harness.jwt(teamID: "OTHERTEAM1")), status: 403, reason: "InvalidProviderToken")
        let stranger = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
        try await expectRejection(harness, harness.request(jwt: harness.jwt(key: stranger)), status: 403, reason: "InvalidProviderToken")
        try await expectRejection(harness, harness.request(replacing: ["authorization": "Basic abc"]), status: 403, reason: "InvalidProviderToken")
        await harness.stop()
    }

    @Test func bearerCaseIsConfigurable() async throws {
        let lenient = try await EndpointHarness.start()
        let client = try await lenient.connect()
        let answer = try await client.send(lenient.request(replacing: ["authorization": "Bearer " + lenient.jwt()]), body: EndpointHarness.payload)
        #expect(answer.status == 200)
        await client.close()
        await lenient.stop()

        let strict = try await EndpointHarness.start { $0.bearerCaseInsensitive = false }
        try await expectRejection(strict, strict.request(replacing: ["authorization": "Bearer " + strict.jwt()]), status: 403, reason: "InvalidProviderToken")
        await strict.stop()
    }

    @Test func expiredProviderToken() async throws {
        let harness = try await EndpointHarness.start()
        let old = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(-3601))
        try await expectRejection(harness, harness.request(jwt: old), status: 403, reason: "ExpiredProviderToken")
        // A token that ages past an hour on a live connection expires too.
        let client = try await harness.connect()
        let fresh = harness.jwt()
        #expect(try await client.send(harness.request(jwt: fresh), body: EndpointHarness.payload).status == 200)
        harness.clock.advance(by: 3700)
        let later = try await client.send(harness.request(jwt: fresh), body: EndpointHarness.payload)
        #expect(later.status == 403)
        #expect(later.reason == "ExpiredProviderToken")
        await client.close()
        await harness.stop()
    }

    @Test func futureIssuedAt() async throws {
        let harness = try await EndpointHarness.start()
        let skewed = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(30))
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(jwt: skewed), body: EndpointHarness.payload).status == 200)
        await client.close()
        let ahead = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(600))
        try await expectRejection(harness, harness.request(jwt: ahead), status: 403, reason: "InvalidProviderToken")
        await harness.stop()

        let accepting = try await EndpointHarness.start { $0.futureIssuedAtTolerance = nil }
        let second = try await accepting.connect()
        let farAhead = accepting.jwt(issuedAt: accepting.clock.now().addingTimeInterval(6000))
        #expect(try await second.send(accepting.request(jwt: farAhead), body: EndpointHarness.payload).status == 200)
        await second.close()
        await accepting.stop()
    }

    @Test func badEnvironmentKey() async throws {
        let harness = try await EndpointHarness.start(keyEnvironment: .production)
        try await expectRejection(harness, harness.request(), status: 403, reason: "BadEnvironmentKeyIdInToken")
        // The same key is fine on the production host.
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(authority: "api.push.apple.com"), body: EndpointHarness.payload).status == 200)
        await client.close()
        await harness.stop()

        let fieldSpelling = try await EndpointHarness.start(keyEnvironment: .production) {
            $0.badEnvironmentKeyReason = "BadEnvironmentKeyInToken"
        }
        try await expectRejection(fieldSpelling, fieldSpelling.request(), status: 403, reason: "BadEnvironmentKeyInToken")
        await fieldSpelling.stop()
    }

    /// A push signed by `makeJWT` (given the harness's key and clock) is answered 200.
    private func expectAccepted(
        _ makeJWT: (P256.Signing.PrivateKey, String, String, Date) throws -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let harness = try await EndpointHarness.start()
        let jwt = try makeJWT(harness.signingKey.privateKey, EndpointHarness.keyID, EndpointHarness.teamID, harness.clock.now())
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(jwt: jwt), body: EndpointHarness.payload).status == 200, sourceLocation: sourceLocation)
        await client.close()
        await harness.stop()
    }

    @Test func derSignatureIsAccepted() async throws {
        try await expectAccepted(TestJWT.derSigned)
    }

    @Test func numericStringIssuedAtIsAcceptedUnlessConfigured() async throws {
        try await expectAccepted(TestJWT.stringIssuedAt)

        let strict = try await EndpointHarness.start { $0.acceptStringIssuedAt = false }
        let strictJWT = try TestJWT.stringIssuedAt(key: strict.signingKey.privateKey, keyID: EndpointHarness.keyID,
                                                   teamID: EndpointHarness.teamID, issuedAt: strict.clock.now())
        try await expectRejection(strict, strict.request(jwt: strictJWT), status: 403, reason: "InvalidProviderToken")
        await strict.stop()
    }

    @Test func tooManyProviderTokenUpdates() async throws {
        let harness = try await EndpointHarness.start()
        let client = try await harness.connect()
        let first = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(-20))
        let second = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(-10))
        let third = harness.jwt()
        #expect(try await client.send(harness.request(jwt: first), body: EndpointHarness.payload).status == 200)
        #expect(try await client.send(harness.request(jwt: second), body: EndpointHarness.payload).status == 200)
        let answer = try await client.send(harness.request(jwt: third), body: EndpointHarness.payload)
        #expect(answer.status == 429)
        #expect(answer.reason == "TooManyProviderTokenUpdates")
        // The connection keeps its current token, which still works.
        #expect(try await client.send(harness.request(jwt: second), body: EndpointHarness.payload).status == 200)
        // After 20 minutes a change is allowed again.
        harness.clock.advance(by: 20 * 60 + 1)
        let renewed = harness.jwt()
        #expect(try await client.send(harness.request(jwt: renewed), body: EndpointHarness.payload).status == 200)
        await client.close()
        await harness.stop()
    }

    @Test func teamBinding() async throws {
        let harness = try await EndpointHarness.start()
        let otherKey = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
        harness.keys.register(keyID: "KEY0000009", teamID: "TEAM000009", publicKey: otherKey.privateKey.publicKey)
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        let other = harness.jwt(keyID: "KEY0000009", teamID: "TEAM000009", key: otherKey)
        let answer = try await client.send(harness.request(jwt: other), body: EndpointHarness.payload)
        #expect(answer.status == 403)
        #expect(answer.reason == "InvalidProviderToken")
        await client.close()
        // On a new connection the other team is fine.
        let fresh = try await harness.connect()
        #expect(try await fresh.send(harness.request(jwt: other), body: EndpointHarness.payload).status == 200)
        await fresh.close()
        await harness.stop()

        let forbidden = try await EndpointHarness.start { $0.teamMismatchReason = .forbidden }
        forbidden.keys.register(keyID: "KEY0000009", teamID: "TEAM000009", publicKey: otherKey.privateKey.publicKey)
        let third = try await forbidden.connect()
        #expect(try await third.send(forbidden.request(), body: EndpointHarness.payload).status == 200)
        let mixed = try await third.send(forbidden.request(jwt: forbidden.jwt(keyID: "KEY0000009", teamID: "TEAM000009", key: otherKey)), body: EndpointHarness.payload)
        #expect(mixed.reason == "Forbidden")
        await third.close()
        await forbidden.stop()
    }

    @Test func unrelatedKeyIdInToken() async throws {
        let harness = try await EndpointHarness.start()
        let topicKey = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
        harness.keys.register(keyID: "KEY0000002", teamID: EndpointHarness.teamID, publicKey: topicKey.privateKey.publicKey,
                              topics: [EndpointHarness.bundleID])
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        let answer = try await client.send(harness.request(jwt: harness.jwt(keyID: "KEY0000002", key: topicKey)), body: EndpointHarness.payload)
        #expect(answer.status == 403)
        #expect(answer.reason == "UnrelatedKeyIdInToken")
        await client.close()
        await harness.stop()
    }

    @Test func invalidPushType() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(replacing: ["apns-push-type": "LiveActivity"]), status: 400, reason: "InvalidPushType")
        try await expectRejection(harness, harness.request(replacing: ["apns-push-type": nil]), status: 400, reason: "InvalidPushType")
        await harness.stop()

        let inferring = try await EndpointHarness.start { $0.requirePushTypeForLiveActivity = false }
        let client = try await inferring.connect()
        #expect(try await client.send(inferring.request(replacing: ["apns-push-type": nil]), body: EndpointHarness.payload).status == 200)
        await client.close()
        await inferring.stop()
    }

    @Test func badMessageId() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(replacing: ["apns-id": "not-a-uuid"]), status: 400, reason: "BadMessageId")
        try await expectRejection(harness, harness.request(replacing: ["apns-id": "5f1d1b9c1a2b4c3d8e9f0123456789ab"]), status: 400, reason: "BadMessageId")
        let client = try await harness.connect()
        let upper = "5F1D1B9C-1A2B-4C3D-8E9F-0123456789AB"
        let accepted = try await client.send(harness.request(replacing: ["apns-id": upper]), body: EndpointHarness.payload)
        #expect(accepted.status == 200)
        #expect(accepted["apns-id"] == upper)
        await client.close()
        await harness.stop()

        let lowercaseOnly = try await EndpointHarness.start { $0.acceptUppercaseAPNsID = false }
        try await expectRejection(lowercaseOnly, lowercaseOnly.request(replacing: ["apns-id": upper]), status: 400, reason: "BadMessageId")
        await lowercaseOnly.stop()
    }

    @Test func badExpirationDate() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(replacing: ["apns-expiration": "tomorrow"]), status: 400, reason: "BadExpirationDate")
        try await expectRejection(harness, harness.request(replacing: ["apns-expiration": "-1"]), status: 400, reason: "BadExpirationDate")
        try await expectRejection(harness, harness.request(replacing: ["apns-expiration": "1.5"]), status: 400, reason: "BadExpirationDate")
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(replacing: ["apns-expiration": "0"]), body: EndpointHarness.payload).status == 200)
        await client.close()
        await harness.stop()
    }

    @Test func badPriority() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(replacing: ["apns-priority": "7"]), status: 400, reason: "BadPriority")
        try await expectRejection(harness, harness.request(replacing: ["apns-priority": "high"]), status: 400, reason: "BadPriority")
        try await expectRejection(harness, harness.request(replacing: ["apns-priority": "1"]), status: 400, reason: "BadPriority")
        try await expectRejection(harness, harness.request(replacing: [
            "apns-push-type": "background", "apns-topic": EndpointHarness.bundleID, "apns-priority": "10",
        ]), status: 400, reason: "BadPriority")
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(replacing: ["apns-priority": "5"]), body: EndpointHarness.payload).status == 200)
        await client.close()
        await harness.stop()

        let lenient = try await EndpointHarness.start { $0.rejectLowPriorityLiveActivity = false }
        let second = try await lenient.connect()
        #expect(try await second.send(lenient.request(replacing: ["apns-priority": "1"]), body: EndpointHarness.payload).status == 200)
        await second.close()
        await lenient.stop()
    }

    @Test func badCollapseId() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(replacing: ["apns-collapse-id": String(repeating: "c", count: 65)]),
                                  status: 400, reason: "BadCollapseId")
        let client = try await harness.connect()
        let atLimit = try await client.send(harness.request(replacing: ["apns-collapse-id": String(repeating: "c", count: 64)]), body: EndpointHarness.payload)
        #expect(atLimit.status == 200)
        await client.close()
        await harness.stop()
    }

    @Test func topicReasons() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(replacing: ["apns-topic": nil]), status: 400, reason: "MissingTopic")
        try await expectRejection(harness, harness.request(replacing: ["apns-topic": ""]), status: 400, reason: "MissingTopic")
        try await expectRejection(harness, harness.request(replacing: ["apns-topic": EndpointHarness.bundleID]), status: 400, reason: "BadTopic")
        try await expectRejection(harness, harness.request(replacing: ["apns-push-type": "alert"]), status: 400, reason: "BadTopic")
        try await expectRejection(harness, harness.request(replacing: ["apns-topic": "com.example/x.push-type.liveactivity"]), status: 400, reason: "BadTopic")
        await harness.stop()

        let scoped = try await EndpointHarness.start(keyTopics: [EndpointHarness.bundleID])
        try await expectRejection(scoped, scoped.request(replacing: ["apns-topic": "com.other.app.push-type.liveactivity"]),
                                  status: 400, reason: "TopicDisallowed")
        let client = try await scoped.connect()
        #expect(try await client.send(scoped.request(), body: EndpointHarness.payload).status == 200)
        await client.close()
        await scoped.stop()

        let owned = try await EndpointHarness.start { $0.teamBundleIDs = [EndpointHarness.teamID: ["com.example.other"]] }
        try await expectRejection(owned, owned.request(), status: 400, reason: "TopicDisallowed")
        await owned.stop()
    }

    @Test func badDeviceToken() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(token: "zz-not-hex"), status: 400, reason: "BadDeviceToken")
        try await expectRejection(harness, harness.request(token: "abc"), status: 400, reason: "BadDeviceToken")
        await harness.stop()
        // A well-formed token no simulated device owns: the devices answer BadDeviceToken.
        let strict = try await EndpointHarness.start(acceptUnknownTokens: false)
        try await expectRejection(strict, strict.request(), status: 400, reason: "BadDeviceToken")
        await strict.stop()
    }

    @Test func payloadReasons() async throws {
        let harness = try await EndpointHarness.start()
        try await expectRejection(harness, harness.request(), body: [], status: 400, reason: "PayloadEmpty")
        let tooBig = Array(#"{"aps":{"x":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 4096) + Array(#""}}"#.utf8)
        try await expectRejection(harness, harness.request(), body: tooBig, status: 413, reason: "PayloadTooLarge")
        let huge = [UInt8](repeating: UInt8(ascii: "a"), count: 200_000)
        try await expectRejection(harness, harness.request(), body: huge, status: 413, reason: "PayloadTooLarge")
        let voipTopic = EndpointHarness.bundleID + ".voip"
        let client = try await harness.connect()
        let exactly4096 = [UInt8](repeating: UInt8(ascii: " "), count: 4096 - 2) + Array("{}".utf8)
        #expect(try await client.send(harness.request(), body: exactly4096).status == 200)
        let voip5120 = [UInt8](repeating: UInt8(ascii: " "), count: 5120 - 2) + Array("{}".utf8)
        #expect(try await client.send(harness.request(replacing: ["apns-push-type": "voip", "apns-topic": voipTopic]), body: voip5120).status == 200)
        await client.close()
        try await expectRejection(harness, harness.request(replacing: ["apns-push-type": "voip", "apns-topic": voipTopic]),
                                  body: voip5120 + [UInt8(ascii: " ")], status: 413, reason: "PayloadTooLarge")
        await harness.stop()
    }

    @Test func rejectedRequestsKeepTheConnectionOpen() async throws {
        let harness = try await EndpointHarness.start()
        let client = try await harness.connect()
        #expect(try await client.send(harness.request(replacing: ["apns-topic": nil]), body: EndpointHarness.payload).status == 400)
        #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
        #expect(client.goAway == nil)
        #expect(!client.isClosed)
        await client.close()
        await harness.stop()
    }
}
