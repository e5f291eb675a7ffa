import APNsCore
import Foundation
import Testing

@testable import LiveActivity

/// ``JSONWriter`` writes what Foundation's `JSONEncoder` (`[.sortedKeys, .withoutEscapingSlashes]`)
/// writes for the same value: the bytes every payload, stored state and size check has had.
@Suite("JSONValue's writer")
struct JSONWriterTests {
    private static func foundation(_ value: JSONValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map(Array.init) ?? Array("null".utf8)
    }

    @Test(
        arguments: [
            JSONValue.null, true, false, 0, -0.0, 1, -1, 0.1, 1.5, 1e20, 1e-7, 123_456_789.123, 9e15, 8_999_999_999_999_999,
            -9e15, 1e300, .number(.leastNonzeroMagnitude), 0.30000000000000004, .number(.greatestFiniteMagnitude), 1e16, 1_000_000_000_000_000.5,
            "", "plain", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}\u{1F}\u{7F}", "\"quoted\" \\ back/slash",
            "é ａ 😀 \u{2028}\u{2029} e\u{301}", [], [:], [1, "two", [3, [4]], ["k": nil]],
            ["a": 1, "B": 2, "b": 3, "a10": 4, "a2": 5, "é": 6, "Z": 7, "_x": 8, "Ab": 10, "": 11, "😀": 13, "\u{FF41}": 14],
            ["aps": ["timestamp": 1_700_000_000, "event": "update", "content-state": ["emoji": "🦸", "progress": 0.25]]],
            ["bad": .number(.nan)], [.number(.infinity)],
        ] as [JSONValue])
    func writesWhatFoundationsEncoderWrites(value: JSONValue) {
        #expect(JSONWriter.write(value) == Self.foundation(value), "\(String(decoding: Self.foundation(value), as: UTF8.self))")
    }

    @Test func agreesWithFoundationOnGeneratedValues() {
        var generator = SeededRandom(seed: 0x5EED)
        for _ in 0..<2_000 {
            let value = Self.value(depth: 3, using: &generator)
            let expected = Self.foundation(value)
            #expect(JSONWriter.write(value) == expected, "\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func serializedAndDescriptionUseIt() {
        let value: JSONValue = ["b": [1, 2.5], "a": "x/y"]
        #expect(value.serialized() == Data(#"{"a":"x/y","b":[1,2.5]}"#.utf8))
        #expect(value.description == #"{"a":"x/y","b":[1,2.5]}"#)
    }

    private static let alphabet: [Character] = Array("aAbBzZ09_-/\\\"' é\u{FF41}😀\u{0}\u{7}\n\t\u{1F}\u{2028}")

    private static func string(using generator: inout SeededRandom) -> String {
        String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    private static func value(depth: Int, using generator: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
        case 3:
            let magnitude = Double.random(in: -30...30, using: &generator)
            return .number(Double.random(in: -1...1, using: &generator) * pow(10, magnitude))
        case 4, 5: return .string(string(using: &generator))
        case 6:
            return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth: depth - 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[string(using: &generator)] = value(depth: depth - 1, using: &generator)
            }
            return .object(members)
        }
    }
}
