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
        try await harness.withConnection { client in
            let answer = try await client.send(headers, body: body)
            #expect(answer.status == status, sourceLocation: sourceLocation)
            #expect(answer.reason == reason, sourceLocation: sourceLocation)
            #expect(answer["content-type"] == "application/json", sourceLocation: sourceLocation)
            #expect(answer["apns-id"].flatMap { APNsID.parse($0) } != nil, sourceLocation: sourceLocation)
            #expect(answer["apns-unique-id"] == nil, sourceLocation: sourceLocation)
            #expect(answer.json?["timestamp"] == nil, sourceLocation: sourceLocation)
        }
    }

    @Test func methodNotAllowed() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(method: "GET"), body: [], status: 405, reason: "MethodNotAllowed")
            try await expectRejection(harness, harness.request(method: "PUT"), status: 405, reason: "MethodNotAllowed")
        }
    }

    @Test func badPathAndMissingDeviceToken() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(path: "/3/devices/abcd"), status: 404, reason: "BadPath")
            try await expectRejection(harness, harness.request(path: "/4/device/abcd"), status: 404, reason: "BadPath")
            try await expectRejection(harness, harness.request(path: "/3/device/abcd/extra"), status: 404, reason: "BadPath")
            try await expectRejection(harness, harness.request(path: "/3/device/"), status: 400, reason: "MissingDeviceToken")
        }
    }

    @Test func duplicateHeaders() async throws {
        try await withEndpoint { harness in
            try await expectRejection(
                harness, harness.request(extra: [("apns-topic", EndpointHarness.topic)]),
                status: 400, reason: "DuplicateHeaders")
            try await expectRejection(
                harness, harness.request(extra: [("x-custom", "1"), ("x-custom", "2")]),
                status: 400, reason: "DuplicateHeaders")
        }
    }

    @Test func missingProviderToken() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(replacing: ["authorization": nil]), status: 403, reason: "MissingProviderToken")
            try await expectRejection(harness, harness.request(replacing: ["authorization": ""]), status: 403, reason: "MissingProviderToken")
            try await expectRejection(harness, harness.request(replacing: ["authorization": "bearer "]), status: 403, reason: "MissingProviderToken")
            // Auth comes before the token: a junk token without auth is still MissingProviderToken.
            try await expectRejection(
                harness, harness.request(token: "zz", replacing: ["authorization": nil]), status: 403, reason: "MissingProviderToken")
        }
    }

    @Test func invalidProviderToken() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(jwt: "not.a.jwt"), status: 403, reason: "InvalidProviderToken")
            try await expectRejection(harness, harness.request(jwt: harness.jwt(keyID: "UNKNOWN001")), status: 403, reason: "InvalidProviderToken")
            try await expectRejection(harness, harness.request(jwt: harness.jwt(teamID: "OTHERTEAM1")), status: 403, reason: "InvalidProviderToken")
            let stranger = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
            try await expectRejection(harness, harness.request(jwt: harness.jwt(key: stranger)), status: 403, reason: "InvalidProviderToken")
            try await expectRejection(
                harness, harness.request(replacing: ["authorization": "Basic abc"]), status: 403, reason: "InvalidProviderToken")
        }
    }

    @Test func bearerCaseIsConfigurable() async throws {
        try await withEndpoint { lenient in
            try await lenient.withConnection { client in
                let answer = try await client.send(
                    lenient.request(replacing: ["authorization": "Bearer " + lenient.jwt()]), body: EndpointHarness.payload)
                #expect(answer.status == 200)
            }
        }

        try await withEndpoint(configure: { $0.bearerCaseInsensitive = false }) { strict in
            try await expectRejection(
                strict, strict.request(replacing: ["authorization": "Bearer " + strict.jwt()]), status: 403, reason: "InvalidProviderToken")
        }
    }

    @Test func expiredProviderToken() async throws {
        try await withEndpoint { harness in
            let old = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(-3601))
            try await expectRejection(harness, harness.request(jwt: old), status: 403, reason: "ExpiredProviderToken")
            // A token that ages past an hour on a live connection expires too.
            try await harness.withConnection { client in
                let fresh = harness.jwt()
                #expect(try await client.send(harness.request(jwt: fresh), body: EndpointHarness.payload).status == 200)
                harness.clock.advance(by: 3700)
                let later = try await client.send(harness.request(jwt: fresh), body: EndpointHarness.payload)
                #expect(later.status == 403)
                #expect(later.reason == "ExpiredProviderToken")
            }
        }
    }

    @Test func futureIssuedAt() async throws {
        try await withEndpoint { harness in
            let skewed = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(30))
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(jwt: skewed), body: EndpointHarness.payload).status == 200)
            }
            let ahead = harness.jwt(issuedAt: harness.clock.now().addingTimeInterval(600))
            try await expectRejection(harness, harness.request(jwt: ahead), status: 403, reason: "InvalidProviderToken")
        }

        try await withEndpoint(configure: { $0.futureIssuedAtTolerance = nil }) { accepting in
            try await accepting.withConnection { second async throws in
                let farAhead = accepting.jwt(issuedAt: accepting.clock.now().addingTimeInterval(6000))
                #expect(try await second.send(accepting.request(jwt: farAhead), body: EndpointHarness.payload).status == 200)
            }
        }
    }

    @Test func badEnvironmentKey() async throws {
        try await withEndpoint(keyEnvironment: .production) { harness in
            try await expectRejection(harness, harness.request(), status: 403, reason: "BadEnvironmentKeyIdInToken")
            // The same key is fine on the production host.
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(authority: "api.push.apple.com"), body: EndpointHarness.payload).status == 200)
            }
        }

        try await withEndpoint(
            keyEnvironment: .production,
            configure: {
                $0.badEnvironmentKeyReason = "BadEnvironmentKeyInToken"
            }
        ) { fieldSpelling in
            try await expectRejection(fieldSpelling, fieldSpelling.request(), status: 403, reason: "BadEnvironmentKeyInToken")
        }
    }

    /// A push signed by `makeJWT` (given the harness's key and clock) is answered 200.
    private func expectAccepted(
        _ makeJWT: (P256.Signing.PrivateKey, String, String, Date) throws -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withEndpoint { harness in
            let jwt = try makeJWT(harness.signingKey.privateKey, EndpointHarness.keyID, EndpointHarness.teamID, harness.clock.now())
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(jwt: jwt), body: EndpointHarness.payload).status == 200, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func derSignatureIsAccepted() async throws {
        try await expectAccepted(TestJWT.derSigned)
    }

    @Test func numericStringIssuedAtIsAcceptedUnlessConfigured() async throws {
        try await expectAccepted(TestJWT.stringIssuedAt)

        try await withEndpoint(configure: { $0.acceptStringIssuedAt = false }) { strict in
            let strictJWT = try TestJWT.stringIssuedAt(
                key: strict.signingKey.privateKey, keyID: EndpointHarness.keyID,
                teamID: EndpointHarness.teamID, issuedAt: strict.clock.now())
            try await expectRejection(strict, strict.request(jwt: strictJWT), status: 403, reason: "InvalidProviderToken")
        }
    }

    @Test func tooManyProviderTokenUpdates() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
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
            }
        }
    }

    @Test func teamBinding() async throws {
        let otherKey = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
        try await withEndpoint { harness in
            harness.keys.register(keyID: "KEY0000009", teamID: "TEAM000009", publicKey: otherKey.privateKey.publicKey)
            let other = harness.jwt(keyID: "KEY0000009", teamID: "TEAM000009", key: otherKey)
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                let answer = try await client.send(harness.request(jwt: other), body: EndpointHarness.payload)
                #expect(answer.status == 403)
                #expect(answer.reason == "InvalidProviderToken")
            }
            // On a new connection the other team is fine.
            try await harness.withConnection { fresh async throws in
                #expect(try await fresh.send(harness.request(jwt: other), body: EndpointHarness.payload).status == 200)
            }
        }

        try await withEndpoint(configure: { $0.teamMismatchReason = .forbidden }) { forbidden in
            forbidden.keys.register(keyID: "KEY0000009", teamID: "TEAM000009", publicKey: otherKey.privateKey.publicKey)
            try await forbidden.withConnection { third in
                #expect(try await third.send(forbidden.request(), body: EndpointHarness.payload).status == 200)
                let mixed = try await third.send(
                    forbidden.request(jwt: forbidden.jwt(keyID: "KEY0000009", teamID: "TEAM000009", key: otherKey)), body: EndpointHarness.payload)
                #expect(mixed.reason == "Forbidden")
            }
        }
    }

    @Test func unrelatedKeyIDInToken() async throws {
        try await withEndpoint { harness in
            let topicKey = APNsSigningKey(privateKey: P256.Signing.PrivateKey())
            harness.keys.register(
                keyID: "KEY0000002", teamID: EndpointHarness.teamID, publicKey: topicKey.privateKey.publicKey,
                topics: [EndpointHarness.bundleID])
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                let answer = try await client.send(
                    harness.request(jwt: harness.jwt(keyID: "KEY0000002", key: topicKey)), body: EndpointHarness.payload)
                #expect(answer.status == 403)
                #expect(answer.reason == "UnrelatedKeyIdInToken")
            }
        }
    }

    @Test func invalidPushType() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(replacing: ["apns-push-type": "LiveActivity"]), status: 400, reason: "InvalidPushType")
            try await expectRejection(harness, harness.request(replacing: ["apns-push-type": nil]), status: 400, reason: "InvalidPushType")
        }

        try await withEndpoint(configure: { $0.requirePushTypeForLiveActivity = false }) { inferring in
            try await inferring.withConnection { client async throws in
                #expect(try await client.send(inferring.request(replacing: ["apns-push-type": nil]), body: EndpointHarness.payload).status == 200)
            }
        }
    }

    @Test func badMessageID() async throws {
        let upper = "5F1D1B9C-1A2B-4C3D-8E9F-0123456789AB"
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(replacing: ["apns-id": "not-a-uuid"]), status: 400, reason: "BadMessageId")
            try await expectRejection(
                harness, harness.request(replacing: ["apns-id": "5f1d1b9c1a2b4c3d8e9f0123456789ab"]), status: 400, reason: "BadMessageId")
            try await harness.withConnection { client in
                let accepted = try await client.send(harness.request(replacing: ["apns-id": upper]), body: EndpointHarness.payload)
                #expect(accepted.status == 200)
                #expect(accepted["apns-id"] == upper)
            }
        }

        try await withEndpoint(configure: { $0.acceptUppercaseAPNsID = false }) { lowercaseOnly in
            try await expectRejection(lowercaseOnly, lowercaseOnly.request(replacing: ["apns-id": upper]), status: 400, reason: "BadMessageId")
        }
    }

    @Test func badExpirationDate() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(replacing: ["apns-expiration": "tomorrow"]), status: 400, reason: "BadExpirationDate")
            try await expectRejection(harness, harness.request(replacing: ["apns-expiration": "-1"]), status: 400, reason: "BadExpirationDate")
            try await expectRejection(harness, harness.request(replacing: ["apns-expiration": "1.5"]), status: 400, reason: "BadExpirationDate")
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(replacing: ["apns-expiration": "0"]), body: EndpointHarness.payload).status == 200)
            }
        }
    }

    @Test func badPriority() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(replacing: ["apns-priority": "7"]), status: 400, reason: "BadPriority")
            try await expectRejection(harness, harness.request(replacing: ["apns-priority": "high"]), status: 400, reason: "BadPriority")
            try await expectRejection(harness, harness.request(replacing: ["apns-priority": "1"]), status: 400, reason: "BadPriority")
            try await expectRejection(
                harness,
                harness.request(replacing: [
                    "apns-push-type": "background", "apns-topic": EndpointHarness.bundleID, "apns-priority": "10",
                ]), status: 400, reason: "BadPriority")
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(replacing: ["apns-priority": "5"]), body: EndpointHarness.payload).status == 200)
            }
        }

        try await withEndpoint(configure: { $0.rejectLowPriorityLiveActivity = false }) { lenient in
            try await lenient.withConnection { second async throws in
                #expect(try await second.send(lenient.request(replacing: ["apns-priority": "1"]), body: EndpointHarness.payload).status == 200)
            }
        }
    }

    @Test func badCollapseID() async throws {
        try await withEndpoint { harness in
            try await expectRejection(
                harness, harness.request(replacing: ["apns-collapse-id": String(repeating: "c", count: 65)]),
                status: 400, reason: "BadCollapseId")
            try await harness.withConnection { client in
                let atLimit = try await client.send(
                    harness.request(replacing: ["apns-collapse-id": String(repeating: "c", count: 64)]), body: EndpointHarness.payload)
                #expect(atLimit.status == 200)
            }
        }
    }

    @Test func topicReasons() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(replacing: ["apns-topic": nil]), status: 400, reason: "MissingTopic")
            try await expectRejection(harness, harness.request(replacing: ["apns-topic": ""]), status: 400, reason: "MissingTopic")
            try await expectRejection(harness, harness.request(replacing: ["apns-topic": EndpointHarness.bundleID]), status: 400, reason: "BadTopic")
            try await expectRejection(harness, harness.request(replacing: ["apns-push-type": "alert"]), status: 400, reason: "BadTopic")
            try await expectRejection(
                harness, harness.request(replacing: ["apns-topic": "com.example/x.push-type.liveactivity"]), status: 400, reason: "BadTopic")
        }

        try await withEndpoint(keyTopics: [EndpointHarness.bundleID]) { scoped in
            try await expectRejection(
                scoped, scoped.request(replacing: ["apns-topic": "com.other.app.push-type.liveactivity"]),
                status: 400, reason: "TopicDisallowed")
            try await scoped.withConnection { client async throws in
                #expect(try await client.send(scoped.request(), body: EndpointHarness.payload).status == 200)
            }
        }

        try await withEndpoint(configure: { $0.teamBundleIDs = [EndpointHarness.teamID: ["com.example.other"]] }) { owned in
            try await expectRejection(owned, owned.request(), status: 400, reason: "TopicDisallowed")
        }
    }

    @Test func badDeviceToken() async throws {
        try await withEndpoint { harness in
            try await expectRejection(harness, harness.request(token: "zz-not-hex"), status: 400, reason: "BadDeviceToken")
            try await expectRejection(harness, harness.request(token: "abc"), status: 400, reason: "BadDeviceToken")
        }
        // A well-formed token no simulated device owns: the devices answer BadDeviceToken.
        try await withEndpoint(acceptUnknownTokens: false) { strict in
            try await expectRejection(strict, strict.request(), status: 400, reason: "BadDeviceToken")
        }
    }

    @Test func payloadReasons() async throws {
        try await withEndpoint { harness async throws in
            try await expectRejection(harness, harness.request(), body: [], status: 400, reason: "PayloadEmpty")
            let tooBig = Array(#"{"aps":{"x":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 4096) + Array(#""}}"#.utf8)
            try await expectRejection(harness, harness.request(), body: tooBig, status: 413, reason: "PayloadTooLarge")
            let huge = [UInt8](repeating: UInt8(ascii: "a"), count: 200_000)
            try await expectRejection(harness, harness.request(), body: huge, status: 413, reason: "PayloadTooLarge")
            let voipTopic = EndpointHarness.bundleID + ".voip"
            let voip5120 = [UInt8](repeating: UInt8(ascii: " "), count: 5120 - 2) + Array("{}".utf8)
            try await harness.withConnection { client async throws in
                let exactly4096 = [UInt8](repeating: UInt8(ascii: " "), count: 4096 - 2) + Array("{}".utf8)
                #expect(try await client.send(harness.request(), body: exactly4096).status == 200)
                #expect(
                    try await client.send(harness.request(replacing: ["apns-push-type": "voip", "apns-topic": voipTopic]), body: voip5120).status
                        == 200)
            }
            try await expectRejection(
                harness, harness.request(replacing: ["apns-push-type": "voip", "apns-topic": voipTopic]),
                body: voip5120 + [UInt8(ascii: " ")], status: 413, reason: "PayloadTooLarge")
        }
    }

    @Test func rejectedRequestsKeepTheConnectionOpen() async throws {
        try await withEndpoint { harness async throws in
            try await harness.withConnection { client async throws in
                #expect(try await client.send(harness.request(replacing: ["apns-topic": nil]), body: EndpointHarness.payload).status == 400)
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                #expect(client.goAway == nil)
                #expect(!client.isClosed)
            }
        }
    }
}
