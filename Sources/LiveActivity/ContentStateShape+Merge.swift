import Foundation

/// Two versions of an app's `ContentState` as one shape that both decode: while old and new app versions
/// run side by side, the server must refuse what either would drop.
extension ContentStateShape {
    /// The shape whose accepted content-states decode with both `self` and `other`: a property required by
    /// either is required, null is accepted only where both accept it, `integer` beside `number` is
    /// `integer`, base64 beside a plain string is base64, and a property only one version has keeps that
    /// version's rule (the other ignores the key). Throws when no value satisfies both (`string` against
    /// `number`): the versions cannot both decode that property, and a backend must choose (with `PUT`).
    public func merged(with other: ContentStateShape) throws(ContentStateShapeConflict) -> ContentStateShape {
        ContentStateShape(root: try Self.merge(root, other.root, path: ""))
    }

    private static func merge(_ a: Node, _ b: Node, path: String) throws(ContentStateShapeConflict) -> Node {
        var out = a
        switch (a.kind, b.kind) {
        case (let x, let y) where x == y: break
        case (nil, let y): out.kind = y
        case (_, nil): break
        case (.integer, .number), (.number, .integer): out.kind = .integer
        default:
            throw ContentStateShapeConflict(path: path, first: a.typeDescription, second: b.typeDescription)
        }
        out.nullable = a.nullable && b.nullable
        out.base64 = a.base64 || b.base64
        out.required = a.required.union(b.required)
        for (name, property) in b.properties {
            let inner = path.isEmpty ? name : path + "." + name
            out.properties[name] =
                try a.properties[name].map { (mine) throws(ContentStateShapeConflict) in try merge(mine, property, path: inner) } ?? property
        }
        switch (a.items, b.items) {
        case (let x?, let y?): out.items = try merge(x, y, path: path + "[]")
        case (nil, let y): out.items = y
        default: break
        }
        return out
    }
}

/// Two shapes that no content-state satisfies together: the property at `path` has two types.
public struct ContentStateShapeConflict: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var first: String
    public var second: String

    public var description: String {
        "\(path.isEmpty ? "content-state" : path): \(first) in one version, \(second) in another; no value decodes in both"
    }
}

/// Shapes from what an app has: an example content-state, or the simulator's flat schema.
extension ContentStateShape {
    /// Infers a shape from an encoded content-state: every key present is required with its JSON type,
    /// objects and arrays described in depth (an array by its first element, when all share its type), except
    /// the keys in `optional` (paths as `check` names them: `note`, `hero.title`), which may be missing or
    /// null. Numbers are `number` (an encoder writes the Double `2.0` as `2`), null values are optional of any type.
    public init(inferringFrom contentState: JSONValue, optional: Set<String> = []) {
        self.init(root: Self.infer(contentState, path: "", optional: optional))
        root.kind = .object
    }

    private static func infer(_ value: JSONValue, path: String, optional: Set<String>) -> Node {
        switch value {
        case .null: return Node(nil, nullable: true)
        case .bool: return Node(.boolean)
        case .number: return Node(.number)
        case .string: return Node(.string)
        case .array(let elements):
            var node = Node(.array)
            if let first = elements.first, first != .null, elements.allSatisfy({ $0.typeName == first.typeName }) {
                node.items = infer(first, path: path + "[]", optional: optional)
            }
            return node
        case .object(let fields):
            var node = Node(.object)
            for (name, field) in fields {
                let inner = path.isEmpty ? name : path + "." + name
                node.properties[name] = infer(field, path: inner, optional: optional)
                if field != .null, !optional.contains(inner) { node.required.insert(name) }
            }
            return node
        }
    }

    /// The shape of a flat schema (the simulator's `ContentStateSchema`): its optional fields not required,
    /// a `date` a number, `data` a base64 string.
    public init(_ schema: ContentStateSchema) {
        var properties: [String: Node] = [:]
        for (name, type) in schema.fields {
            switch type.kind {
            case .string: properties[name] = Node(.string)
            case .number, .date: properties[name] = Node(.number)
            case .integer: properties[name] = Node(.integer)
            case .boolean: properties[name] = Node(.boolean)
            case .object: properties[name] = Node(.object)
            case .array: properties[name] = Node(.array)
            case .data: properties[name] = Node(.string, base64: true)
            }
        }
        self.init(properties: properties, required: Set(schema.fields.filter { !$0.value.optional }.keys))
    }
}
