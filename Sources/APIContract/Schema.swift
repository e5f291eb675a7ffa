import Foundation
import LiveActivity

/// One schema of the contract, parsed once: the JSON Schema keywords the validator applies (OpenAPI 3.0's
/// dialect), with every `$ref` already followed. The `x-` keywords are ours:
/// - `x-rule`: the rule a request breaks when this schema's `pattern`, `anyOf`, `oneOf` or `not` branch
///   refuses it (`hex` for a device token); without it `pattern`, `anyOf` or `not`;
/// - `x-field`: in a `not` branch, the field to name when the branch matches (`sound`);
/// - `x-maxBytes`: a limit in UTF-8 bytes (an APNs header); without it a string of at most `maxLength`
///   characters may take 4 bytes per character;
/// - `x-check`: a rule JSON Schema cannot state, kept in code once (`ContractCheck`) and named here;
/// - `x-maximumAhead`: for `x-check: expiration`, how far from now, in seconds.
package final class Schema: Sendable {
    package let type: String?
    package let nullable: Bool
    package let enumValues: [JSONValue]?
    package let minLength: Int?
    package let maxLength: Int?
    package let maxBytes: Int?
    package let pattern: Pattern?
    package let minimum: Double?
    package let maximum: Double?
    package let exclusiveMinimum: Bool
    package let exclusiveMaximum: Bool
    package let minItems: Int?
    package let maxItems: Int?
    package let items: Schema?
    /// Properties by name, in name order (the document's object order is not kept by the parser).
    package let properties: [(name: String, schema: Schema)]
    package let required: [String]
    package let additionalProperties: Bool
    package let minProperties: Int?
    package let allOf: [Schema]
    package let anyOf: [Schema]
    package let oneOf: [Schema]
    package let not: Schema?
    package let check: String?
    package let rule: String?
    package let field: String?
    package let maximumAhead: Double?
    package let description: String?

    /// Parses `value` (a schema object of `document`), following `$ref`s into `document`'s components.
    init(_ value: JSONValue, in document: JSONValue) throws(ContractDocumentError) {
        var value = value
        var seen: Set<String> = []
        while let reference = value["$ref"]?.stringValue {
            guard seen.insert(reference).inserted else { throw .invalid("the $ref \(reference) refers to itself") }
            value = try Self.resolve(reference, in: document)
        }
        guard let object = value.objectValue else { throw .invalid("a schema is a JSON \(value.typeName), not an object") }
        // A schema checked in code (`x-check`) is validated by its check alone: its keywords are for other tools
        // (schemathesis, the generator) and may refer to themselves (the content-state shape's nodes), so they
        // are not parsed.
        let checked = object["x-check"] != nil
        func int(_ key: String) -> Int? { object[key]?.numberValue.map { Int($0) } }
        func schemas(_ key: String) throws(ContractDocumentError) -> [Schema] {
            var out: [Schema] = []
            for each in object[key]?.arrayValue ?? [] { out.append(try Schema(each, in: document)) }
            return out
        }
        type = object["type"]?.stringValue
        nullable = object["nullable"]?.boolValue ?? false
        enumValues = object["enum"]?.arrayValue
        minLength = int("minLength")
        maxLength = int("maxLength")
        maxBytes = int("x-maxBytes")
        pattern = try object["pattern"]?.stringValue.map { text throws(ContractDocumentError) in try Pattern(text) }
        minimum = object["minimum"]?.numberValue
        maximum = object["maximum"]?.numberValue
        exclusiveMinimum = object["exclusiveMinimum"]?.boolValue ?? false
        exclusiveMaximum = object["exclusiveMaximum"]?.boolValue ?? false
        minItems = int("minItems")
        maxItems = int("maxItems")
        items = checked ? nil : try object["items"].map { item throws(ContractDocumentError) in try Schema(item, in: document) }
        var properties: [(String, Schema)] = []
        for (name, property) in (checked ? [:] : object["properties"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            properties.append((name, try Schema(property, in: document)))
        }
        self.properties = properties
        required = (object["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        additionalProperties = object["additionalProperties"]?.boolValue ?? true
        minProperties = int("minProperties")
        allOf = try schemas("allOf")
        anyOf = try schemas("anyOf")
        oneOf = try schemas("oneOf")
        not = try object["not"].map { item throws(ContractDocumentError) in try Schema(item, in: document) }
        check = object["x-check"]?.stringValue
        rule = object["x-rule"]?.stringValue
        field = object["x-field"]?.stringValue
        maximumAhead = object["x-maximumAhead"]?.numberValue
        description = object["description"]?.stringValue
    }

    /// The property `name`, when the schema (or one it extends through `allOf`) declares it.
    package func property(_ name: String) -> Schema? {
        properties.first { $0.name == name }?.schema ?? allOf.lazy.compactMap { $0.property(name) }.first
    }

    /// A `#/components/...` reference's target.
    static func resolve(_ reference: String, in document: JSONValue) throws(ContractDocumentError) -> JSONValue {
        guard reference.hasPrefix("#/") else { throw .invalid("only local references are followed, not \(reference)") }
        var value = document
        for part in reference.dropFirst(2).split(separator: "/") {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = value[key] else { throw .invalid("the $ref \(reference) names nothing in the document") }
            value = next
        }
        return value
    }
}
