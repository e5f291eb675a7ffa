import Foundation
import LiveActivity

extension ContentStateShape {
    /// The shape of the app's `ContentState`, derived from one value of it: what a default `JSONEncoder` writes
    /// says the keys and JSON types, and the value's own properties (read with `Mirror`) say the rest:
    ///
    /// - an `Optional` property is optional (not `required`), whether the sample holds a value or nil (a nil one
    ///   is left out of the encoded JSON; its type comes from the property's declared type);
    /// - an `Int` (any fixed-width integer) is `integer`, a `Double` or `Float` `number`, a `Date` `number`
    ///   (seconds since 2001-01-01), `Data` a base64 `string`;
    /// - nested structs and arrays are described in depth (an array by its first element).
    ///
    /// It reads properties by name, so a `ContentState` whose `CodingKeys` rename a property gets that key from the
    /// encoded JSON, required, with its JSON type; and a nil optional of a type that is none of the above
    /// (an enum, a struct) is optional with any type. No other code is needed:
    ///
    /// ```swift
    /// let shape = try ContentStateShape(deriving: AdventureAttributes.ContentState(currentHealthLevel: 1, eventDescription: ""))
    /// ```
    public init<State: Encodable>(deriving sample: State) throws {
        let encoder = JSONEncoder()
        let json = try JSONValue.parse(try encoder.encode(sample))
        self.init(properties: [:], required: [])
        root = Self.derive(json, from: sample)
        root.kind = .object
    }

    private static func derive(_ json: JSONValue, from value: Any) -> Node {
        let value = unwrapped(value) ?? value
        switch json {
        case .object(let fields):
            var node = Node(.object)
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .struct || mirror.displayStyle == .class else { return node }
            var children: [String: Any] = [:]
            for child in mirror.children {
                if let label = child.label { children[label] = child.value }
            }
            for (key, field) in fields {
                let child = children[key]
                node.properties[key] = child.map { derive(field, from: $0) } ?? Node(kind(of: field))
                if child.map(isOptional) != true, field != .null { node.required.insert(key) }
            }
            // Optionals that were nil: left out of the JSON, described by their declared type.
            for (label, child) in children where fields[label] == nil && isOptional(child) && unwrapped(child) == nil {
                node.properties[label] = declared(type(of: child))
            }
            return node
        case .array(let elements):
            var node = Node(.array)
            if let first = elements.first, let element = Mirror(reflecting: value).children.first?.value {
                node.items = derive(first, from: element)
            }
            return node
        case .number:
            return Node(integerTypes.contains { $0 == type(of: value) } ? .integer : .number)
        case .string:
            return Node(.string, base64: value is Data)
        default:
            return Node(kind(of: json))
        }
    }

    private static let integerTypes: [Any.Type] = [
        Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
    ]

    private static func kind(of json: JSONValue) -> Kind? {
        switch json {
        case .null: nil
        case .bool: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    private static func isOptional(_ value: Any) -> Bool { Mirror(reflecting: value).displayStyle == .optional }

    /// The value an Optional holds; nil for nil and for a value that is not an Optional.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return nil }
        return mirror.children.first?.value
    }

    /// A nil optional's shape from its declared type.
    private static func declared(_ type: Any.Type) -> Node {
        guard let wrapped = (type as? any OptionalType.Type)?.wrappedType else { return Node(nil) }
        if integerTypes.contains(where: { $0 == wrapped }) { return Node(.integer) }
        switch wrapped {
        case is Double.Type, is Float.Type, is Date.Type: return Node(.number)
        case is String.Type: return Node(.string)
        case is Bool.Type: return Node(.boolean)
        case is Data.Type: return Node(.string, base64: true)
        default: return Node(String(describing: wrapped).hasPrefix("Array<") ? .array : nil)
        }
    }
}

/// Reads an Optional's wrapped type from its metatype.
private protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    fileprivate static var wrappedType: Any.Type { Wrapped.self }
}
