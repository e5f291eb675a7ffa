import Foundation
import LiveActivity
import Testing

@testable import APIContract

/// The ids' pattern, `^[^...]+$`, is checked by hand (a request names up to 10,000 ids): the same answer
/// as the regular expression on the edge of every refused range, for any text but one that ends in a line
/// terminator, which ICU's `$` lets through and the pattern's JSON Schema meaning does not.
@Suite struct PatternTests {
    /// The `pattern` of a schema of the served contract.
    static func pattern(ofSchema name: String) throws -> String {
        let document = try JSONValue.parse(Data(APIContract.text.utf8))
        return try #require(document["components"]?["schemas"]?[name]?["pattern"]?.stringValue)
    }

    /// The scalars at and around each end of each refused range, and a few ordinary ones.
    static func edgeScalars(_ ranges: [ClosedRange<UInt32>]) -> [Unicode.Scalar] {
        var values: Set<UInt32> = [0x61, 0x2D, 0xE9, 0x1F600, 0xE0001, 0x10FFFF, 0x301]
        for range in ranges {
            for value in [range.lowerBound, range.upperBound] {
                values.formUnion([value &- 1, value, value + 1])
            }
        }
        return values.sorted().compactMap(Unicode.Scalar.init)
    }

    static let lineTerminators: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]

    @Test func theIdPatternIsCheckedByHandAsTheExpressionChecksIt() throws {
        let source = try Self.pattern(ofSchema: "Id")
        let ranges = try #require(Pattern.refusedScalars(of: source), "the ids' pattern takes the hand-written check")
        #expect(ranges.contains { $0.contains(0x0) } && ranges.contains { $0.contains(0x202E) } && ranges.contains { $0.contains(0xFEFF) })
        let pattern = try Pattern(source)
        let expression = try NSRegularExpression(pattern: source)
        func expressionMatches(_ text: String) -> Bool {
            expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        var texts = ["", "a", "rangers-1", "café/1", "👩‍🚀", String(repeating: "x", count: 128), "a b", "\u{E0001}tag"]
        for scalar in Self.edgeScalars(ranges) {
            let one = String(Character(scalar))
            texts += [one, "a" + one + "b", one + "a", "ab" + one]
        }
        var compared = 0
        for text in texts {
            let endsInLineTerminator = text.unicodeScalars.last.map { Self.lineTerminators.contains($0.value) } ?? false
            if endsInLineTerminator {
                #expect(!pattern.matches(text), "\(text.debugDescription) ends in a line terminator, which an id never holds")
                #expect(pattern.firstRefused(in: text) != nil)
                continue
            }
            compared += 1
            #expect(pattern.matches(text) == expressionMatches(text), "\(text.debugDescription)")
            if !text.isEmpty {
                #expect((pattern.firstRefused(in: text) == nil) == pattern.matches(text), "\(text.debugDescription)")
            }
        }
        #expect(compared > 100)
    }

    @Test func otherPatternsKeepTheExpression() throws {
        #expect(Pattern.refusedScalars(of: "^[0-9a-fA-F]+$") == nil)
        #expect(Pattern.refusedScalars(of: "^[^\\u0000-\\u001F]*$") == nil, "empty texts allowed: not the ids' shape")
        #expect(Pattern.refusedScalars(of: "^[^\\u001F-\\u0000]+$") == nil, "a range backwards")
        #expect(Pattern.refusedScalars(of: "^[^\\u0000-\\u001Fa]+$") == nil, "a literal character")
        #expect(Pattern.refusedScalars(of: "^[^\\u0041\\u0000-\\u0010\\u0011]+$") == [0x0...0x11, 0x41...0x41], "merged and sorted")
        let hex = try Pattern("^[0-9a-f]+$")
        #expect(hex.matches("8f3a") && !hex.matches("8g") && hex.firstRefused(in: "8g")?.position == 2)
    }
}
