import Foundation

/// The JSON type of one content-state field and whether it may be missing. Encodes as its type name,
/// with a trailing `?` when optional (`"number"`, `"string?"`).
public struct FieldType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The JSON types a Swift property decodes from with a default JSONDecoder.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case string
        /// Any JSON number (a Swift `Double`).
        case number
        /// A whole JSON number (a Swift `Int`): JSONDecoder rejects `1.5` for an Int.
        case integer
        case boolean
        case object
        case array
        /// A Swift `Date`: a number of seconds since 2001-01-01 (the default date strategy).
        case date
        /// A Swift `Data`: a base64 string (the default data strategy).
        case data

        public var description: String { rawValue }

        /// What is wrong with `value` for this type, or nil when it decodes. `value` is not null.
        func problem(with value: JSONValue) -> SchemaMismatch.Problem? {
            switch (self, value) {
            case (.string, .string), (.number, .number), (.boolean, .bool), (.object, .object), (.array, .array):
                return nil
            case (.integer, .number(let number)), (.date, .number(let number)):
                if self == .integer, number.rounded() != number || abs(number) >= 9.2e18 {
                    return .notWholeNumber(number)
                }
                return nil
            case (.data, .string(let text)):
                return Data(base64Encoded: text) == nil ? .notBase64 : nil
            default:
                return .wrongType(expected: self, actual: value.typeName)
            }
        }
    }

    public var kind: Kind
    /// Optional fields may be missing or null.
    public var optional: Bool

    public init(_ kind: Kind, optional: Bool = false) {
        self.kind = kind
        self.optional = optional
    }

    /// Parses `"number"` or `"string?"`; nil for an unknown type name.
    public init?(name: String) {
        let isOptional = name.hasSuffix("?")
        guard let kind = Kind(rawValue: isOptional ? String(name.dropLast()) : name) else { return nil }
        self.init(kind, optional: isOptional)
    }

    /// The type name, `?`-suffixed when optional.
    public var description: String { kind.rawValue + (optional ? "?" : "") }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let type = FieldType(name: name) else {
            let accepted = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown field type '\(name)'; accepted: \(accepted), each optionally followed by ?"
            )
        }
        self = type
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// One way a content state fails its schema.
public struct SchemaMismatch: Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        /// A required field is absent or null.
        case missing(expected: FieldType.Kind)
        case wrongType(expected: FieldType.Kind, actual: String)
        /// An `integer` field holds a number with a fraction (or beyond Int's range).
        case notWholeNumber(Double)
        /// A `data` field holds a string that is not base64.
        case notBase64
        /// The content state itself is not a JSON object.
        case notAnObject(actual: String)
    }

    public var field: String
    public var problem: Problem

    /// For example `currentHealthLevel: expected number, got string`.
    public var description: String {
        switch problem {
        case .missing(let expected):
            return "\(field): missing (expected \(expected))"
        case .wrongType(let expected, let actual):
            return "\(field): expected \(expected)\(Self.hint(expected)), got \(actual)"
        case .notWholeNumber(let number):
            return "\(field): expected integer, got \(number) (not a whole number)"
        case .notBase64:
            return "\(field): expected data (a base64 string), got a string that is not base64"
        case .notAnObject(let actual):
            return "\(field): expected object, got \(actual)"
        }
    }

    private static func hint(_ kind: FieldType.Kind) -> String {
        switch kind {
        case .date: return " (seconds since 2001-01-01)"
        case .data: return " (base64 string)"
        default: return ""
        }
    }
}
