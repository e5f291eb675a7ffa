import Foundation
import LiveActivity
import Testing

/// Content state from the app's own Codable types must encode as the device's default JSONDecoder reads.
@Suite struct EncodableContentStateTests {
    enum Mood: String, Codable { case happy, sleepy }

    struct MatchState: Codable {
        var endsAt: Date
        var avatar: Data
        var mood: Mood
        var note: String?
        var homeScore: Int
    }

    @Test func dateIsSecondsSince2001AndDataIsBase64() throws {
        let state = MatchState(
            endsAt: Fixtures.unix(1_685_952_000.5), avatar: Data([1, 2, 3]), mood: .sleepy, note: nil, homeScore: 2
        )
        let payload = try LiveActivityPayload.update(contentState: state, timestamp: Fixtures.unix(1_685_952_000))
        let expected: JSONValue = [
            "endsAt": .number(1_685_952_000.5 - 978_307_200),
            "avatar": "AQID",
            "mood": "sleepy",
            "homeScore": 2,
        ]
        #expect(payload.contentState == expected)
        // The aps timestamp stays Unix seconds; only dates inside content-state use the 2001 reference.
        #expect(payload.apsValue["timestamp"] == 1_685_952_000)
        let body = String(decoding: payload.encoded(), as: UTF8.self)
        #expect(body.contains("\"endsAt\":707644800.5"))
        #expect(!body.contains("note"))
    }

    @Test func encodedContentStateDecodesBackWithADefaultJSONDecoder() throws {
        let state = MatchState(endsAt: Fixtures.unix(1_700_000_000), avatar: Data("hi".utf8), mood: .happy, note: "x", homeScore: 0)
        let payload = try LiveActivityPayload.update(contentState: state)
        let contentState = try #require(payload.jsonValue["aps"]?["content-state"])
        let decoded = try JSONDecoder().decode(MatchState.self, from: contentState.serialized())
        #expect(decoded.endsAt == state.endsAt)
        #expect(decoded.avatar == state.avatar)
        #expect(decoded.mood == .happy)
        #expect(decoded.note == "x")
    }

    @Test func homogeneousLiteralTakesTheEncodablePathWithTheSameResult() throws {
        let viaEncodable = try LiveActivityPayload.update(contentState: ["emoji": "🍏"], timestamp: Fixtures.unix(1))
        let viaJSON = LiveActivityPayload.update(contentState: ["emoji": "🍏"] as JSONValue, timestamp: Fixtures.unix(1))
        #expect(viaEncodable == viaJSON)
    }

    @Test func notEncodableValueIsASpecificError() {
        struct Broken: Encodable { var level = Double.nan }
        #expect(throws: LiveActivityPayloadError.self) {
            try LiveActivityPayload.update(contentState: Broken())
        }
        do {
            _ = try LiveActivityPayload.update(contentState: Broken())
        } catch {
            guard case .notEncodable(.contentState, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(error.description.hasPrefix("content-state could not be encoded"))
        }
    }

    @Test func attributesFromEncodableAreEncodedToo() throws {
        struct Attributes: Codable { var startedAt: Date }
        let payload = try LiveActivityPayload.start(
            attributesType: "MatchAttributes", attributes: Attributes(startedAt: Date(timeIntervalSinceReferenceDate: 10)),
            contentState: EmojiState(emoji: "⚽️"), alert: LiveActivityAlert(title: "Kick-off")
        )
        #expect(payload.attributes == ["startedAt": 10])
    }

    @Test func timestampDefaultsToNowAndDropsFractions() throws {
        let before = Date().timeIntervalSince1970.rounded(.down)
        let payload = LiveActivityPayload.update(contentState: [:] as JSONValue)
        let after = Date().timeIntervalSince1970
        let sent = try #require(payload.apsValue["timestamp"]?.numberValue)
        #expect(sent >= before && sent <= after)
        #expect(sent == sent.rounded(.down))
    }

    @Test func relevanceScoreWholeNumbersEncodeAsIntegersAndFractionsStay() {
        let whole = LiveActivityPayload.update(contentState: [:] as JSONValue, timestamp: Fixtures.unix(0), relevanceScore: 250)
        #expect(
            String(decoding: whole.encoded(), as: UTF8.self).contains("\"relevance-score\":250,")
                || String(decoding: whole.encoded(), as: UTF8.self).contains("\"relevance-score\":250}"))
        let fraction = LiveActivityPayload.update(contentState: [:] as JSONValue, timestamp: Fixtures.unix(0), relevanceScore: -12.5)
        #expect(String(decoding: fraction.encoded(), as: UTF8.self).contains("\"relevance-score\":-12.5"))
        #expect(throws: Never.self) { try fraction.validate() }
    }

    @Test func inputPushTokenEncodesAsOne() {
        let payload = LiveActivityPayload.start(
            attributesType: "A", attributes: [:] as JSONValue, contentState: [:] as JSONValue, alert: LiveActivityAlert(body: "b"),
            inputPushToken: true, inputPushChannel: "dHJhY2stMQ=="
        )
        #expect(payload.apsValue["input-push-token"] == 1)
        #expect(payload.apsValue["input-push-channel"] == "dHJhY2stMQ==")
        #expect(LiveActivityPayload.update(contentState: [:] as JSONValue).apsValue["input-push-token"] == nil)
    }
}
