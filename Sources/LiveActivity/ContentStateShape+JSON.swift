import Foundation

/// A shape read from and written as its JSON Schema text:
///
/// ```json
/// {"type": "object",
///  "properties": {"currentHealthLevel": {"type": "number"}, "note": {"type": ["string", "null"]},
///                 "endsAt": {"type": "number", "description": "Date: seconds since 2001-01-01"}},
///  "required": ["currentHealthLevel", "endsAt"]}
/// ```
///
/// Only keywords whose meaning the device's decoder shares are taken; any other is refused rather than
/// silently ignored (`additionalProperties: false`, for one, would suggest a check the device never makes).
extension ContentStateShape {
    /// The keywords a shape may use. `$schema`, `title` and `description` are accepted and not kept.
    public static let keywords = ["type", "properties", "required", "items", "nullable", "contentEncoding", "$schema", "title", "description"]

    /// The deepest nesting a shape may have, and the most nodes: bounds on work per check.
    public static let maximumDepth = 16
    public static let maximumNodes = 1000

    /// Reads a shape; the error names the keyword at fault by its path in the shape (`properties.hero.type`).
    public init(json: JSONValue) throws(ContentStateShapeError) {
        var budget = Self.maximumNodes
        let root = try Self.node(json, path: "", depth: 0, budget: &budget)
        guard root.kind == .object, !root.nullable else {
            throw ContentStateShapeError(
                path: "type", rule: "object", message: "a content-state is a JSON object: the shape's root needs \"type\": \"object\"")
        }
        self.init(root: root)
    }

    /// The shape as JSON Schema (its canonical form: what `GET` answers, whatever form was stored).
    public var json: JSONValue { Self.json(root) }

    private static func node(_ value: JSONValue, path: String, depth: Int, budget: inout Int) throws(ContentStateShapeError) -> Node {
        func at(_ keyword: String) -> String { path.isEmpty ? keyword : path + "." + keyword }
        guard case .object(let fields) = value else {
            throw ContentStateShapeError(
                path: path.isEmpty ? "shape" : path, rule: "object", message: "a schema is a JSON object; got \(value.typeName)")
        }
        budget -= 1
        guard depth < maximumDepth, budget >= 0 else {
            throw ContentStateShapeError(
                path: path.isEmpty ? "shape" : path, rule: "maxSize",
                message: "a shape takes at most \(maximumDepth) levels of nesting and \(maximumNodes) schemas")
        }
        if let unknown = fields.keys.sorted().first(where: { !keywords.contains($0) }) {
            throw ContentStateShapeError(
                path: at(unknown), rule: "unknown",
                message:
                    "'\(unknown)' is not supported; a shape takes \(keywords.joined(separator: ", ")) (the device's decoder ignores unknown keys, so additionalProperties has no meaning)"
            )
        }
        for keyword in ["$schema", "title", "description"] {
            if let text = fields[keyword], text.stringValue == nil {
                throw ContentStateShapeError(path: at(keyword), rule: "type", message: "\(keyword) is a string; got \(text.typeName)")
            }
        }
        var node = Node(nil)
        try readType(fields["type"], into: &node, path: at("type"))
        switch fields["nullable"] {
        case .none: break
        case .bool(let flag)?: node.nullable = node.nullable || flag
        case let other?: throw ContentStateShapeError(path: at("nullable"), rule: "type", message: "nullable is true or false; got \(other.typeName)")
        }
        // As in JSON Schema, `contentEncoding` applies to strings, `properties` and `required` to objects,
        // `items` to arrays: on a node of another type they are kept and have no effect.
        switch fields["contentEncoding"] {
        case .none: break
        case .string("base64")?: node.base64 = true
        case _?:
            throw ContentStateShapeError(
                path: at("contentEncoding"), rule: "base64", message: "contentEncoding takes only \"base64\" (on a string: a Swift Data)")
        }
        if let properties = fields["properties"] {
            guard case .object(let members) = properties else {
                throw ContentStateShapeError(path: at("properties"), rule: "object", message: "properties is an object of schemas by name")
            }
            for name in members.keys.sorted() {
                guard let member = members[name] else { continue }
                node.properties[name] = try self.node(member, path: at("properties") + "." + name, depth: depth + 1, budget: &budget)
            }
        }
        if let required = fields["required"] {
            node.required = try readRequired(required, path: at("required"))
            // A required name without a schema: present, of any type.
            for name in node.required where node.properties[name] == nil { node.properties[name] = Node(nil) }
        }
        if let items = fields["items"] {
            node.items = try self.node(items, path: at("items"), depth: depth + 1, budget: &budget)
        }
        return node
    }

    /// `"number"`, or `["string", "null"]` for a nullable one.
    private static func readType(_ value: JSONValue?, into node: inout Node, path: String) throws(ContentStateShapeError) {
        let accepted = Kind.allCases.map(\.rawValue).joined(separator: ", ")
        let names: [JSONValue]
        switch value {
        case .none: return
        case .string?: names = [value ?? .null]
        case .array(let list)?: names = list
        case let other?:
            throw ContentStateShapeError(path: path, rule: "type", message: "type is a type name or a list of them; got \(other.typeName)")
        }
        guard !names.isEmpty, Set(names).count == names.count else {
            throw ContentStateShapeError(path: path, rule: "type", message: "a type list names each type once, and at least one")
        }
        var kinds: [Kind] = []
        for name in names {
            guard case .string(let text) = name, text == "null" || Kind(rawValue: text) != nil else {
                throw ContentStateShapeError(
                    path: path, rule: "type",
                    message: "unknown type \(name); accepted: \(accepted), and null (a Date is number, Data a base64 string)")
            }
            if let kind = Kind(rawValue: text) { kinds.append(kind) } else { node.nullable = true }
        }
        // Several types (a custom Codable that reads either): any value of them; not checked further.
        node.kind = kinds.count == 1 ? kinds[0] : nil
    }

    private static func readRequired(_ value: JSONValue, path: String) throws(ContentStateShapeError) -> Set<String> {
        guard case .array(let list) = value else {
            throw ContentStateShapeError(path: path, rule: "array", message: "required is a list of property names")
        }
        var names = Set<String>()
        for entry in list {
            guard case .string(let name) = entry else {
                throw ContentStateShapeError(path: path, rule: "type", message: "required lists property names (strings); \(entry) is not one")
            }
            names.insert(name)
        }
        return names
    }

    private static func json(_ node: Node) -> JSONValue {
        var out: [String: JSONValue] = [:]
        if let kind = node.kind {
            out["type"] = node.nullable ? .array([.string(kind.rawValue), "null"]) : .string(kind.rawValue)
        } else if node.nullable {
            out["nullable"] = true
        }
        if node.base64 { out["contentEncoding"] = "base64" }
        if node.kind == .object, !node.properties.isEmpty {
            out["properties"] = .object(node.properties.mapValues(json))
            if !node.required.isEmpty { out["required"] = .array(node.required.sorted().map(JSONValue.string)) }
        }
        if let items = node.items { out["items"] = json(items) }
        return .object(out)
    }
}

/// Why a shape was refused: the keyword at fault (its path in the shape), the rule, a sentence.
public struct ContentStateShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var rule: String
    public var message: String

    public var description: String { "\(path): \(rule): \(message)" }
}
