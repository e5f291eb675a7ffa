import Foundation

/// A direct UTF-8 JSON parser into `JSONValue` (RFC 8259). It is what `JSONValue.parse` uses: decoding
/// through `Codable` would try each JSON type in turn and build an error for every miss, which made
/// parsing payloads the most expensive step of the simulator's hot path.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Where the parser is (keys and array indexes), for naming a string that is not UTF-8.
    private var path: [PathElement] = []

    private enum PathElement {
        case key(String)
        case index(Int)
    }
    private static let maximumDepth = 512
    /// Refuse an object that repeats a key (else the last value is kept).
    private var rejectingDuplicateKeys = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ data: Data, rejectingDuplicateKeys: Bool = false) throws(JSONValue.ParseError) -> JSONValue {
        var parser = JSONParser(Array(data))
        parser.rejectingDuplicateKeys = rejectingDuplicateKeys
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// A string (starting at `start`) that is not UTF-8, named by where the parser is.
    private func notUTF8(from start: Int) -> JSONValue.ParseError {
        .invalidUTF8(path: pathName, byte: start)
    }

    /// Where the parser is, as a field name (`alert.title`, `groups[2]`).
    private var pathName: String {
        var name = ""
        for element in path {
            switch element {
            case .key(let key): name += name.isEmpty ? key : "." + key
            case .index(let position): name += "[\(position)]"
            }
        }
        return name
    }

    private func error(_ message: String) -> JSONValue.ParseError {
        .invalidJSON("\(message) at byte \(index)")
    }

    /// Steps over `byte` when it is the next one; false (not moving) otherwise.
    private mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONValue.ParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONValue.ParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        let start = index
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw error("invalid literal") }
        index += count
    }

    private mutating func enter() throws(JSONValue.ParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
    }

    private mutating func parseObject() throws(JSONValue.ParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var object = [String: JSONValue]()
        skipWhitespace()
        if skip(UInt8(ascii: "}")) { return .object(object) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard skip(UInt8(ascii: ":")) else { throw error("expected ':' after a key") }
            skipWhitespace()
            path.append(.key(key))
            if rejectingDuplicateKeys, object[key] != nil { throw .duplicateKey(path: pathName) }
            object[key] = try parseValue()
            path.removeLast()
            guard try continues(until: UInt8(ascii: "}"), in: "an object") else { return .object(object) }
        }
    }

    private mutating func parseArray() throws(JSONValue.ParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var array = [JSONValue]()
        skipWhitespace()
        if skip(UInt8(ascii: "]")) { return .array(array) }
        while true {
            skipWhitespace()
            path.append(.index(array.count))
            array.append(try parseValue())
            path.removeLast()
            guard try continues(until: UInt8(ascii: "]"), in: "an array") else { return .array(array) }
        }
    }

    /// After a member of an object or an element of an array: true past a `,` (another follows), false
    /// past `close` (the object or array ends).
    private mutating func continues(until close: UInt8, in container: String) throws(JSONValue.ParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input in \(container)") }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return true
        case close:
            index += 1
            return false
        default:
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container)")
        }
    }

    private mutating func parseNumber() throws(JSONValue.ParseError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if skip(UInt8(ascii: ".")) {
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number '\(text)' is out of range") }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func parseString() throws(JSONValue.ParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else { throw notUTF8(from: start) }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("control character in a string") }
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scalars, as: UTF8.self) else { throw notUTF8(from: start) }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unfinished escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            default:
                guard byte >= 0x20 else { throw error("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unfinished string")
    }

    private mutating func parseHex4() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unfinished \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
