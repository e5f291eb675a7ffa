import Foundation
import LiveActivity
import Testing

/// Every shared vector must be reproduced by the builders (compared as JSON values).
@Suite struct VectorTests {
    static let knockedDown = RangerState(currentHealthLevel: 0.0, eventDescription: "Power Panda has been knocked down!")

    static func built() throws -> [String: LiveActivityPayload] {
        let t = Fixtures.unix(1_685_952_000)
        return [
            "update.json": try .update(
                contentState: RangerState(currentHealthLevel: 0.941, eventDescription: "Power Panda found a sword!"),
                timestamp: t
            ),
            "alerting.json": try .update(
                contentState: knockedDown,
                alert: LiveActivityAlert(
                    title: "Power Panda is knocked down!", body: "Use a potion to heal Power Panda!", sound: .default
                ),
                timestamp: t
            ),
            "alert-localized-sound.json": try .update(
                contentState: knockedDown,
                alert: LiveActivityAlert(
                    title: .localized(key: "%@ is knocked down!", arguments: ["Power Panda"]),
                    body: .localized(key: "Use a potion to heal %@!", arguments: ["Power Panda"]),
                    sound: .file("HeroDown.mp4")
                ),
                timestamp: t
            ),
            "end-dismissal.json": try .end(
                contentState: RangerState(
                    currentHealthLevel: 0.23, eventDescription: "Adventure over! Power Panda is taking a nap."
                ),
                dismissalDate: Fixtures.unix(1_685_959_200),
                timestamp: t
            ),
            "stale-date.json": .update(
                contentState: [
                    "currentHealthLevel": 0.79,
                    "eventDescription": "Egghead is in the woods and lost connection.",
                ],
                timestamp: t,
                staleDate: Fixtures.unix(1_685_959_200)
            ),
            "relevance-score.json": try .update(
                contentState: RangerState(currentHealthLevel: 0.941, eventDescription: "Power Panda found a sword!"),
                timestamp: t,
                relevanceScore: 100
            ),
            "push-to-start.json": try .start(
                attributesType: "LiveActivityAttributes",
                attributes: EmojiAttributes(name: "Apple"),
                contentState: EmojiState(emoji: "🍏🍏"),
                alert: LiveActivityAlert(title: "Hello", body: "World", sound: "chime.aiff"),
                timestamp: Fixtures.unix(1_705_547_770)
            ),
            "update-stale.json": .update(
                contentState: ["emoji": "🍏🍑"] as JSONValue,
                timestamp: Fixtures.unix(1_705_560_370),
                staleDate: Fixtures.unix(1_705_567_570)
            ),
            "end-with-alert.json": try .end(
                contentState: EmojiState(emoji: "🍑🍑"),
                dismissalDate: Fixtures.unix(1_705_567_570),
                alert: LiveActivityAlert(title: "Hello", body: "Update World", sound: "chime.aiff"),
                timestamp: Fixtures.unix(1_705_560_370)
            ),
        ]
    }

    @Test func everyVectorFileHasABuilder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.vectorsDirectory.path)
            .filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        #expect(Set(files) == Set(try Self.built().keys))
    }

    @Test(arguments: try VectorTests.built().keys.sorted())
    func builderReproducesVector(_ name: String) throws {
        let expected = try JSONValue.parse(try Fixtures.vector(name))
        let payload = try #require(try Self.built()[name])
        #expect(payload.jsonValue == expected)
        #expect(try JSONValue.parse(payload.encoded()) == expected)
        try payload.validate()
    }

    @Test(arguments: try VectorTests.built().keys.sorted())
    func vectorDecodesToTheBuiltPayload(_ name: String) throws {
        let decoded = try LiveActivityPayload.decode(from: try Fixtures.vector(name))
        let payload = try #require(try Self.built()[name])
        #expect(decoded.jsonValue == payload.jsonValue)
        #expect(decoded.event == payload.event)
        #expect(decoded.alert == payload.alert)
    }

    @Test func encodedBodyIsCompact() throws {
        let body = try #require(try Self.built()["update.json"]).encoded()
        let text = String(decoding: body, as: UTF8.self)
        #expect(!text.contains(" \"") && !text.contains("\n"))
        #expect(text.hasPrefix("{\"aps\":{"))
        #expect(text.contains("\"timestamp\":1685952000"))
    }
}
