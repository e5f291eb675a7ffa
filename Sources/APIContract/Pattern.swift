import Foundation

/// A `pattern` of the contract, compiled once. When a text does not match, `firstRefused` finds the first
/// character that none of the pattern's character classes takes (a control character in an id, a `g` in
/// a device token), so that the refusal can say which and where.
///
/// A pattern that only refuses characters, `^[^...]+$` with `\uXXXX` code points and ranges (the ids'),
/// is checked by hand, scalar by scalar, without a regular expression: a request names up to 10,000 ids.
/// It follows the pattern's JSON Schema (ECMA-262) meaning, where `$` is the end of the text; ICU's `$`
/// also takes a final line terminator, which such a pattern refuses anywhere else.
package final class Pattern: @unchecked Sendable {
    // NSRegularExpression is immutable once made and documented as safe to use from several threads.
    package let source: String
    private let expression: NSRegularExpression
    /// Each `[...]` class of the pattern, anchored to match one character.
    private let classes: [NSRegularExpression]
    /// The scalars a pattern of refused characters refuses, sorted; nil for any other pattern.
    private let refused: [ClosedRange<UInt32>]?
    /// Whether `refused` leaves every printable ASCII character (U+0020 to U+007E) alone.
    private let refusesNoPrintableASCII: Bool

    init(_ source: String) throws(ContractDocumentError) {
        self.source = source
        do {
            expression = try NSRegularExpression(pattern: source)
            classes = try Self.characterClasses(of: source).map { try NSRegularExpression(pattern: "^" + $0 + "$") }
        } catch {
            throw .invalid("the pattern \(source) does not compile: \(error)")
        }
        refused = Self.refusedScalars(of: source)
        refusesNoPrintableASCII = refused?.allSatisfy { $0.upperBound < 0x20 || $0.lowerBound > 0x7E } ?? false
    }

    package func matches(_ text: String) -> Bool {
        if let refused {
            guard !text.isEmpty else { return false }
            // Nearly every id is printable ASCII: a byte loop, when the pattern refuses none of it.
            if refusesNoPrintableASCII, Self.isPrintableASCII(text) { return true }
            return !text.unicodeScalars.contains { Self.contains(refused, $0.value) }
        }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The first scalar of `text` that no character class of the pattern accepts, and its 1-based position
    /// in scalars; nil when every scalar is accepted by some class (the text breaks the pattern's shape).
    package func firstRefused(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        if let refused {
            for (offset, scalar) in text.unicodeScalars.enumerated() where Self.contains(refused, scalar.value) {
                return (scalar, offset + 1)
            }
            return nil
        }
        guard !classes.isEmpty else { return nil }
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            let one = String(scalar)
            let range = NSRange(one.startIndex..., in: one)
            if !classes.contains(where: { $0.firstMatch(in: one, range: range) != nil }) { return (scalar, offset + 1) }
        }
        return nil
    }

    /// Whether `text` is printable ASCII only (U+0020 to U+007E), read as bytes in place.
    private static func isPrintableASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            return true
        }
    }

    /// Whether `value` is in one of the sorted, disjoint `ranges` (a binary search: a few comparisons).
    private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else if ranges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }

    /// The refused scalars of a pattern `^[^...]+$` whose class lists only `\uXXXX` code points and
    /// `\uXXXX-\uXXXX` ranges, merged and sorted; nil for any other pattern (matched by the expression).
    static func refusedScalars(of pattern: String) -> [ClosedRange<UInt32>]? {
        guard pattern.hasPrefix("^[^"), pattern.hasSuffix("]+$") else { return nil }
        var body = Substring(pattern.dropFirst(3).dropLast(3))
        func codePoint() -> UInt32? {
            guard body.hasPrefix("\\u"), body.count >= 6, let value = UInt32(body.dropFirst(2).prefix(4), radix: 16) else { return nil }
            guard body.dropFirst(2).prefix(4).allSatisfy(\.isHexDigit) else { return nil }
            body = body.dropFirst(6)
            return value
        }
        var ranges: [ClosedRange<UInt32>] = []
        while !body.isEmpty {
            guard let low = codePoint() else { return nil }
            var high = low
            if body.hasPrefix("-") {
                body = body.dropFirst()
                guard let end = codePoint(), end >= low else { return nil }
                high = end
            }
            ranges.append(low...high)
        }
        guard !ranges.isEmpty else { return nil }
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The `[...]` classes of a pattern (escapes inside them kept as written).
    static func characterClasses(of pattern: String) -> [String] {
        var classes: [String] = []
        var current: String?
        var escaped = false
        for character in pattern {
            if var open = current {
                open.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "]" && open.count > 2 && open != "[^]" {
                    classes.append(open)
                    current = nil
                    continue
                }
                current = open
            } else if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "[" {
                current = "["
            }
        }
        return classes
    }
}
