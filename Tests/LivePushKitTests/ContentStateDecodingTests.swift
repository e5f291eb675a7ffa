import Foundation
import LiveActivity
import LivePushKit
import Testing

/// The content-state helper against the payload vectors the server's builders produce
/// (Tests/LiveActivityTests/Fixtures/Vectors) and payloads built by the server's own code.
@Suite struct ContentStateDecodingTests {
    /// The Emoji Rangers app's ContentState (WWDC23), as the vectors were written for.
    struct RangerState: Decodable, Equatable {
        var currentHealthLevel: Double
        var eventDescription: String
    }

    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LiveActivityTests/Fixtures/Vectors")

    static func vector(_ name: String) throws -> Data { try Data(contentsOf: vectors.appendingPathComponent(name)) }

    /// A decoding that succeeded where the test expected a mismatch.
    struct DecodedUnexpectedly: Error, CustomStringConvertible {
        let description: String
    }

    /// The mismatch `decode` throws; when it decodes instead, throws ``DecodedUnexpectedly`` saying
    /// `ifDecoded`, which fails the test.
    static func mismatch(ifDecoded: String, _ decode: () throws(ContentStateMismatch) -> Void) throws -> ContentStateMismatch {
        do throws(ContentStateMismatch) {
            try decode()
        } catch {
            return error
        }
        throw DecodedUnexpectedly(description: ifDecoded)
    }

    @Test(arguments: ["update.json", "alerting.json", "alert-localized-sound.json", "end-dismissal.json", "stale-date.json", "relevance-score.json"])
    func everyEmojiRangersVectorDecodes(name: String) throws {
        let state = try ContentStateDecoding.decode(RangerState.self, fromPayload: try Self.vector(name))
        #expect(!state.eventDescription.isEmpty)
        #expect((0...1).contains(state.currentHealthLevel))
    }

    @Test func aFractionForAnIntFails() throws {
        struct IntHealth: Decodable {
            var currentHealthLevel: Int
            var eventDescription: String
        }
        let payload = try Self.vector("update.json")
        let error = try Self.mismatch(ifDecoded: "0.941 decoded as an Int") { () throws(ContentStateMismatch) in
            _ = try ContentStateDecoding.decode(IntHealth.self, fromPayload: payload)
        }
        // Foundation's JSONDecoder on Linux reports a fraction for an Int as corrupted data without the
        // key; Apple's platforms name it. Either way the app's test fails here.
        #expect(error.rule == "type" || error.rule == "corrupted")
        #expect(error.field == "currentHealthLevel" || error.field == nil)
    }

    @Test func aNewNonOptionalFieldIsNamed() throws {
        struct Grown: Decodable {
            var currentHealthLevel: Double
            var eventDescription: String
            var level: Int
        }
        let payload = try Self.vector("update.json")
        let error = try Self.mismatch(ifDecoded: "a payload without 'level' decoded") { () throws(ContentStateMismatch) in
            _ = try ContentStateDecoding.decode(Grown.self, fromPayload: payload)
        }
        #expect(error == ContentStateMismatch(field: "level", rule: "required", message: error.message))
    }

    @Test func aNestedFieldIsNamedWithItsPath() throws {
        struct Party: Decodable {
            struct Member: Decodable { var hp: Int }
            var members: [Member]
        }
        let error = try Self.mismatch(ifDecoded: "a string decoded as an Int") { () throws(ContentStateMismatch) in
            _ = try ContentStateDecoding.decode(Party.self, fromContentState: Data(#"{"members":[{"hp":1},{"hp":"full"}]}"#.utf8))
        }
        #expect(error.field == "members[1].hp")
        #expect(error.rule == "type")
    }

    /// The server's builder writes dates inside content-state as seconds since 2001, which the default
    /// decoder reads back; seconds since 1970 decode, but 31 years late: an app test compares the date.
    @Test func datesAreSecondsSince2001() throws {
        struct Timed: Codable, Equatable {
            var endsAt: Date
        }
        let endsAt = Date(timeIntervalSince1970: 1_800_000_000)
        let built = LiveActivityPayload.update(contentState: try JSONValue.encoding(Timed(endsAt: endsAt)), timestamp: endsAt).encoded()
        #expect(try ContentStateDecoding.decode(Timed.self, fromPayload: built) == Timed(endsAt: endsAt))

        let unixSeconds = LiveActivityPayload.update(contentState: ["endsAt": .number(1_800_000_000)], timestamp: endsAt).encoded()
        let misread = try ContentStateDecoding.decode(Timed.self, fromPayload: unixSeconds)
        #expect(misread.endsAt == Date(timeIntervalSinceReferenceDate: 1_800_000_000))
        #expect(misread.endsAt != endsAt)
    }
}
