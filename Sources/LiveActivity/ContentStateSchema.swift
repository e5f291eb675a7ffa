import Foundation

/// The shape of an app's `ContentState` as JSON: field names to types. Used to decode a content state the
/// way a device's default JSONDecoder would, and to report what would make that decoding fail.
///
/// Encodes as a plain object of type names, a trailing `?` marking an optional field:
/// `{"currentHealthLevel":"number","eventDescription":"string","note":"string?"}`.
public struct ContentStateSchema: Sendable, Hashable, Codable {
    public var fields: [String: FieldType]

    public init(fields: [String: FieldType]) {
        self.fields = fields
    }

    /// Infers a schema from an example content state: every non-null field becomes required, numbers become
    /// `number` (never `integer`: `0.0` is a Double in the app), strings `string`. Dates and Data cannot be
    /// told apart from numbers and strings in JSON, so they are inferred as `number` and `string`. Null
    /// fields are left out (their type is unknown; unknown keys are not checked). A non-object gives an
    /// empty schema.
    public init(inferringFrom contentState: JSONValue) {
        var fields: [String: FieldType] = [:]
        for (name, value) in contentState.objectValue ?? [:] {
            let kind: FieldType.Kind
            switch value {
            case .null: continue
            case .bool: kind = .boolean
            case .number: kind = .number
            case .string: kind = .string
            case .array: kind = .array
            case .object: kind = .object
            }
            fields[name] = FieldType(kind)
        }
        self.fields = fields
    }

    /// Every way `contentState` fails the schema, sorted by field name. Keys not in the schema are ignored,
    /// as JSONDecoder ignores them; optional fields may be missing or null.
    public func check(_ contentState: JSONValue) -> [SchemaMismatch] {
        guard let object = contentState.objectValue else {
            return [SchemaMismatch(field: "content-state", problem: .notAnObject(actual: contentState.typeName))]
        }
        var out: [SchemaMismatch] = []
        for name in fields.keys.sorted() {
            guard let type = fields[name] else { continue }
            guard let value = object[name], value != .null else {
                if !type.optional { out.append(SchemaMismatch(field: name, problem: .missing(expected: type.kind))) }
                continue
            }
            if let problem = type.kind.problem(with: value) {
                out.append(SchemaMismatch(field: name, problem: problem))
            }
        }
        return out
    }

    public init(from decoder: any Decoder) throws {
        fields = try decoder.singleValueContainer().decode([String: FieldType].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fields)
    }
}
