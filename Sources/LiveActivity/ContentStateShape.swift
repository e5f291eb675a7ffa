import Foundation

/// What an app's `ContentState` decodes from, as the device's default `JSONDecoder` reads it: a subset of JSON
/// Schema (`type`, `properties`, `required`, `items`, `nullable`, `contentEncoding`), nested as deep as the
/// Swift type is. ``check(_:)`` answers exactly where that decoder would fail, with one of three rules:
///
/// - `missing`: a non-optional property's key is absent (`keyNotFound`);
/// - `null`: a non-optional property (or array element) is null (`valueNotFound`);
/// - `type`: a value of another JSON type, a fraction for an integer, a non-base64 string for `Data`
///   (`typeMismatch`, `dataCorrupted`).
///
/// Keys the shape does not name are ignored, as the decoder ignores them. A property not listed in `required`
/// is a Swift optional: synthesized `Codable` reads it with `decodeIfPresent`, which takes a missing key and
/// null alike. A `Date` is a `number` (seconds since 2001-01-01, the default strategy), `Data` a `string`
/// with `contentEncoding: base64`.
public struct ContentStateShape: Sendable, Hashable {
    /// The JSON type of a node; nil accepts any value (a Swift type the shape does not describe).
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case string, number, integer, boolean, object, array
        public var description: String { rawValue }
    }

    /// One value's shape: its type and, for an object, its properties; for an array, its elements.
    public struct Node: Sendable, Hashable {
        public var kind: Kind?
        /// Null is accepted even where the value is required (a Swift `T?` read with `decode(T?.self, …)`).
        public var nullable: Bool
        /// A `string` that must be base64 (a Swift `Data`).
        public var base64: Bool
        /// An object's properties (checked only for `object`).
        public var properties: [String: Node]
        /// An object's properties that must be present (non-optional in Swift).
        public var required: Set<String>
        // An array's element shape, boxed (a struct cannot hold itself).
        private var itemBox: [Node]

        public init(
            _ kind: Kind?, nullable: Bool = false, base64: Bool = false, properties: [String: Node] = [:], required: Set<String> = [],
            items: Node? = nil
        ) {
            self.kind = kind
            self.nullable = nullable
            self.base64 = base64
            self.properties = properties
            self.required = required
            self.itemBox = items.map { [$0] } ?? []
        }

        /// An array's element shape; nil checks no element.
        public var items: Node? {
            get { itemBox.first }
            set { itemBox = newValue.map { [$0] } ?? [] }
        }
    }

    /// The content-state itself: always an object.
    public var root: Node

    /// A shape of the top-level properties given, those in `required` non-optional.
    public init(properties: [String: Node], required: Set<String>) {
        root = Node(.object, properties: properties, required: required)
    }

    init(root: Node) {
        self.root = root
    }

    /// Every place `contentState` would fail to decode, in path order; empty when the device decodes it.
    public func check(_ contentState: JSONValue) -> [ContentStateViolation] {
        var out: [ContentStateViolation] = []
        Self.check(contentState, against: root, path: "", into: &out)
        return out
    }

    private static func check(_ value: JSONValue, against node: Node, path: String, into out: inout [ContentStateViolation]) {
        if case .null = value {
            if !node.nullable { out.append(ContentStateViolation(path: path, rule: .null, expected: node.typeDescription, actual: "null")) }
            return
        }
        guard let kind = node.kind else { return }
        if let mismatch = mismatch(value, kind: kind, base64: node.base64) {
            out.append(ContentStateViolation(path: path, rule: .type, expected: node.typeDescription, actual: mismatch))
            return
        }
        switch value {
        case .object(let fields) where kind == .object:
            for name in node.properties.keys.sorted() {
                guard let property = node.properties[name] else { continue }
                let inner = path.isEmpty ? name : path + "." + name
                guard let field = fields[name] else {
                    if node.required.contains(name) {
                        out.append(ContentStateViolation(path: inner, rule: .missing, expected: property.typeDescription, actual: nil))
                    }
                    continue
                }
                // An optional property (not required) reads null as nil.
                if case .null = field, !node.required.contains(name) { continue }
                check(field, against: property, path: inner, into: &out)
            }
        case .array(let elements) where kind == .array:
            guard let items = node.items else { return }
            for (index, element) in elements.enumerated() {
                check(element, against: items, path: path + "[\(index)]", into: &out)
            }
        default:
            return
        }
    }

    /// What `value` is instead of `kind`, or nil when it decodes as `kind`.
    private static func mismatch(_ value: JSONValue, kind: Kind, base64: Bool) -> String? {
        switch (kind, value) {
        case (.string, .string(let text)):
            return base64 && Data(base64Encoded: text) == nil ? "a string that is not base64" : nil
        case (.number, .number), (.boolean, .bool), (.object, .object), (.array, .array):
            return nil
        case (.integer, .number(let number)):
            // JSONDecoder reads an Int only from a whole number within Int64.
            return number.rounded() == number && abs(number) < 9.2e18 ? nil : "\(number) (not a whole number)"
        default:
            return value.typeName
        }
    }
}

extension ContentStateShape.Node {
    /// `number`, `string (base64)`, `integer or null`, `any value`.
    public var typeDescription: String {
        var text = kind?.rawValue ?? "any value"
        if base64 { text += " (base64)" }
        if nullable { text += " or null" }
        return text
    }
}

/// One place a content-state would fail to decode on the device, and why.
public struct ContentStateViolation: Sendable, Hashable, CustomStringConvertible {
    /// How the device's decoder would fail.
    public enum Rule: String, Sendable, Hashable {
        /// A non-optional key is absent (`keyNotFound`).
        case missing
        /// Null for a non-optional value (`valueNotFound`).
        case null
        /// A value of another type (`typeMismatch`, or `dataCorrupted` for bad base64).
        case type
    }

    /// The value's path inside the content-state (`hero.health`, `events[2]`); empty for the content-state itself.
    public var path: String
    public var rule: Rule
    /// What the shape accepts there (`number`, `string or null`).
    public var expected: String
    /// What was found; nil when missing.
    public var actual: String?

    public init(path: String, rule: Rule, expected: String, actual: String?) {
        self.path = path
        self.rule = rule
        self.expected = expected
        self.actual = actual
    }

    /// For example `currentHealthLevel: missing (number expected)`, `score: type: integer expected, got string`.
    public var description: String {
        let name = path.isEmpty ? "content-state" : path
        switch rule {
        case .missing: return "\(name): missing (\(expected) expected)"
        case .null: return "\(name): null (\(expected) expected)"
        case .type: return "\(name): type: \(expected) expected, got \(actual ?? "nothing")"
        }
    }
}
