/// Writes a ``JSONValue`` as compact JSON with sorted keys, byte for byte as Foundation's `JSONEncoder`
/// with `[.sortedKeys, .withoutEscapingSlashes]` writes it (the form payloads, stored states and size
/// checks have always had), without going through `Encodable`: a payload is written on every push, and
/// the encoder's boxing and dictionary sorting cost more than the push's other work put together.
///
/// The rules, as that encoder has them:
/// - keys in ascending `String` order (Unicode scalar order; `"B" < "a"`);
/// - a whole number of magnitude below 9e15 as an integer (``JSONValue/integer(writing:)``), any other
///   number as Swift's shortest round-trip form without a trailing `.0` (`1e+20`, `0.1`);
/// - strings as UTF-8, escaping `"` and `\`, control characters as `\b \t \n \f \r` or `\u00xx`
///   (lowercase hex), `/` and everything else as it is;
/// - a number that is not finite has no JSON form: the whole value is written as `null`, as the encoder's
///   failure made it.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    /// The value's JSON text.
    static func write(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(256)
        guard writer.append(value) else { return Array("null".utf8) }
        return writer.bytes
    }

    /// Appends `value`; false when it holds a number that is not finite.
    private mutating func append(_ value: JSONValue) -> Bool {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let number): return append(number: number)
        case .string(let string): append(string: string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard append(element) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(string: key)
                bytes.append(UInt8(ascii: ":"))
                // The key comes from the dictionary: its value is there.
                guard let member = members[key], append(member) else { return false }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        return true
    }

    private mutating func append(number: Double) -> Bool {
        guard number.isFinite else { return false }
        if let whole = JSONValue.integer(writing: number) {
            bytes.append(contentsOf: String(whole).utf8)
            return true
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        return true
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func append(string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case ..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
