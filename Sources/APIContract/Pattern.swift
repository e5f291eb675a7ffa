import Foundation

/// A `pattern` of the contract, compiled once. When a text does not match, `firstRefused` finds the first
/// character that none of the pattern's character classes takes (a control character in an id, a `g` in
/// a device token), so that the refusal can say which and where.
package final class Pattern: @unchecked Sendable {
    // NSRegularExpression is immutable once made and documented as safe to use from several threads.
    package let source: String
    private let expression: NSRegularExpression
    /// Each `[...]` class of the pattern, anchored to match one character.
    private let classes: [NSRegularExpression]

    init(_ source: String) throws(ContractDocumentError) {
        self.source = source
        do {
            expression = try NSRegularExpression(pattern: source)
            classes = try Self.characterClasses(of: source).map { try NSRegularExpression(pattern: "^" + $0 + "$") }
        } catch {
            throw .invalid("the pattern \(source) does not compile: \(error)")
        }
    }

    package func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The first scalar of `text` that no character class of the pattern accepts, and its 1-based position
    /// in scalars; nil when every scalar is accepted by some class (the text breaks the pattern's shape).
    package func firstRefused(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        guard !classes.isEmpty else { return nil }
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            let one = String(scalar)
            let range = NSRange(one.startIndex..., in: one)
            if !classes.contains(where: { $0.firstMatch(in: one, range: range) != nil }) { return (scalar, offset + 1) }
        }
        return nil
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
