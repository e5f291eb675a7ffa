import Foundation

/// A JSON value, for content-state and attributes given as raw JSON, and for reading payloads the way
/// a device sees them.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidJSON(String)
        /// A string that is not UTF-8 (RFC 8259 requires it): `path` names it (`alert.title`, `groups[2]`;
        /// empty for a string at the top level), `byte` is where its bad bytes start.
        case invalidUTF8(path: String, byte: Int)
        /// An object names a key twice (`path` is the key with its place, `alert.title`); only refused by
        /// ``JSONValue/parse(_:rejectingDuplicateKeys:)`` with `true`.
        case duplicateKey(path: String)

        public var description: String {
            switch self {
            case .invalidJSON(let detail): return "not valid JSON: \(detail)"
            case .invalidUTF8(let path, let byte):
                return "not valid JSON: the string \(path.isEmpty ? "" : "at '\(path)' ")is not UTF-8 (byte \(byte))"
            case .duplicateKey(let path):
                return "the key '\(path)' appears twice in one object; give each key once"
            }
        }
    }

    /// Parses JSON text (any JSON value at the top level). RFC 8259 leaves repeated keys in an object to
    /// the reader; by default the last value is kept, as devices do. With `rejectingDuplicateKeys`, a
    /// repeated key is an error (a request whose readers could disagree on what it says).
    public static func parse(_ data: Data, rejectingDuplicateKeys: Bool = false) throws(ParseError) -> JSONValue {
        try JSONParser.parse(data, rejectingDuplicateKeys: rejectingDuplicateKeys)
    }

    public static func parse(_ text: String) throws(ParseError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// Encodes any Encodable exactly as Foundation's default JSONEncoder does, which is what a device's
    /// default JSONDecoder reads back: property names as keys, Date as seconds since 2001-01-01,
    /// Data as base64.
    public static func encoding(_ value: some Encodable) throws -> JSONValue {
        let data = try JSONEncoder().encode(value)
        return try parse(data)
    }

    public init(from decoder: any Decoder) throws {
        // A value already parsed is taken whole (a request body the server parsed once and checked).
        if let parsed = decoder as? any JSONValueBackedDecoder {
            self = parsed.jsonValue
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let object = try? container.decode([String: JSONValue].self) {
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if let whole = Self.integer(writing: value) {
                try container.encode(whole)
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The integer a number is written as: a whole number below 9e15 (exact as a Double) is written without a
    /// fraction; nil for any other number, written as a double.
    public static func integer(writing number: Double) -> Int64? {
        number.rounded() == number && abs(number) < 9.0e15 ? Int64(number) : nil
    }

    /// Compact JSON with sorted keys (stable output for tests and size checks), as Foundation's
    /// `JSONEncoder` writes it with `[.sortedKeys, .withoutEscapingSlashes]` (see ``JSONWriter``).
    public func serialized() -> Data { Data(JSONWriter.write(self)) }

    public var description: String { String(decoding: JSONWriter.write(self), as: UTF8.self) }

    /// The JSON type name, as used in error messages and content-state schemas.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

/// A `Decoder` that reads a `JSONValue` already parsed: a `JSONValue` decoded from it is that value, taken
/// whole, rather than rebuilt member by member through its containers (the server decodes each request body,
/// parsed once and checked against the contract, as the contract's types, whose free-form objects are
/// `JSONValue`s).
public protocol JSONValueBackedDecoder: Decoder {
    /// The value at the decoder's position.
    var jsonValue: JSONValue { get }
}
