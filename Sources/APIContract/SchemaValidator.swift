import Foundation
import LiveActivity

/// Checks a JSON value against a schema of the contract and names the first problem: the field (with its
/// path), the rule and what is accepted. Keywords are taken as OpenAPI 3.0 defines them, with two choices
/// of ours that the contract's descriptions state: a `null` member counts as absent (it satisfies neither
/// `required` nor any other keyword, and breaks none), and a string of at most `maxLength` characters is
/// also held to `x-maxBytes` UTF-8 bytes, or 4 per character, checked before the characters are counted.
/// A character is a Unicode scalar (a code point), as JSON Schema's `minLength` and `maxLength` count
/// them: a client's validator and a fuzzer agree with the server on every length.
package struct SchemaValidator: Sendable {
    /// The moment relative dates (`+30m`) and `expiration` count from.
    package var now: Date

    package init(now: Date) { self.now = now }

    /// Whether `value` satisfies `schema` (for `anyOf`, `oneOf` and `not`). An object missing a member the
    /// schema requires is refused at once, without the violation's message that `validate` would write:
    /// the usual answer of a `not` branch (each batch item is checked against five).
    func accepts(_ value: JSONValue, _ schema: Schema, at field: String) -> Bool {
        if schema.check == nil, case .object(let members) = value, schema.required.contains(where: { (members[$0] ?? .null) == .null }) {
            return false
        }
        do {
            try validate(value, schema, at: field)
            return true
        } catch {
            return false
        }
    }

    /// Throws the first violation of `schema` by `value`; `field` is the value's path ("" for the body).
    package func validate(_ value: JSONValue, _ schema: Schema, at field: String) throws(ContractViolation) {
        if let check = schema.check {
            try ContractCheck.run(check, value, schema, at: field, now: now)
            return
        }
        if let type = schema.type { try checkType(value, type, at: field) }
        if let values = schema.enumValues, !values.contains(value) {
            throw violation(
                field, "oneOf", "'\(name(field))' is \(value); accepted: \(values.map(\.enumText).joined(separator: ", "))", schema)
        }
        switch value {
        case .string(let text): try checkString(text, schema, at: field)
        case .number(let number): try checkNumber(number, schema, at: field)
        case .array(let elements): try checkArray(elements, schema, at: field)
        case .object(let members): try checkObject(members, schema, at: field)
        case .bool, .null: break
        }
        for each in schema.allOf { try validate(value, each, at: field) }
        try checkAlternatives(value, schema, at: field)
        if let not = schema.not { try checkNot(value, not, at: field) }
    }

    // MARK: Types

    private func checkType(_ value: JSONValue, _ type: String, at field: String) throws(ContractViolation) {
        // An integer is a number that is whole.
        let whole = value.numberValue.map { $0.rounded() == $0 && abs($0) < 1e15 } ?? true
        guard !Schema.isOfType(type, value) || (type == "integer" && !whole) else { return }
        let rule = type == "object" ? "object" : type == "integer" ? "integer" : "type"
        let expected = Schema.typeText(type)
        let given = type == "integer" && value.numberValue != nil ? "\(value)" : "a JSON \(value.typeName)"
        throw ContractViolation(field: field.isEmpty ? nil : field, rule: rule, "'\(name(field))' is \(given); expected \(expected)")
    }

    // MARK: Strings, numbers, arrays

    private func checkString(_ text: String, _ schema: Schema, at field: String) throws(ContractViolation) {
        if let minimum = schema.minLength, text.isEmpty || (minimum > 1 && text.unicodeScalars.count < minimum) {
            let rule = minimum == 1 ? "nonEmpty" : "minLength"
            throw violation(
                field, rule, "'\(name(field))' \(text.isEmpty ? "is empty" : "has \(text.unicodeScalars.count) characters"); \(lengths(schema))",
                schema)
        }
        // 4 bytes per character, before the characters are counted (work proportional to the bytes); an
        // explicit `x-maxBytes` (an APNs header's limit) after them, as the tighter rule.
        let bytes = text.utf8.count
        if schema.maxBytes == nil, let maximum = schema.maxLength, bytes > 4 * maximum {
            throw violation(
                field, "maxBytes",
                "'\(name(field))' is \(bytes) bytes of UTF-8; at most \(4 * maximum) are accepted (\(maximum) characters of at most 4 bytes each)",
                schema)
        }
        if let maximum = schema.maxLength, text.unicodeScalars.count > maximum {
            throw violation(
                field, "maxLength", "'\(name(field))' has \(text.unicodeScalars.count) characters; at most \(maximum) are accepted", schema)
        }
        if let limit = schema.maxBytes, bytes > limit {
            throw violation(field, "maxBytes", "'\(name(field))' is \(bytes) bytes of UTF-8; at most \(limit) are accepted", schema)
        }
        if let pattern = schema.pattern, !pattern.matches(text) {
            let rule = schema.rule ?? "pattern"
            if let (scalar, position) = pattern.firstRefused(in: text) {
                throw violation(field, rule, "'\(name(field))' has \(Self.describe(scalar)) at position \(position)", schema)
            }
            throw violation(field, rule, "'\(name(field))' does not have the form \(pattern.source)", schema)
        }
    }

    private func checkNumber(_ number: Double, _ schema: Schema, at field: String) throws(ContractViolation) {
        let low = schema.minimum.map { schema.exclusiveMinimum ? number <= $0 : number < $0 } ?? false
        let high = schema.maximum.map { schema.exclusiveMaximum ? number >= $0 : number > $0 } ?? false
        guard low || high else { return }
        let from = schema.minimum.map { "\(schema.exclusiveMinimum ? "above" : "from") \(JSONValue.number($0))" }
        let to = schema.maximum.map { "\(schema.exclusiveMaximum ? "below" : "to") \(JSONValue.number($0))" }
        throw violation(
            field, "range", "'\(name(field))' is \(JSONValue.number(number)); accepted: \([from, to].compactMap { $0 }.joined(separator: " "))",
            schema)
    }

    private func checkArray(_ elements: [JSONValue], _ schema: Schema, at field: String) throws(ContractViolation) {
        if let minimum = schema.minItems, elements.count < minimum {
            throw violation(field, "minCount", "'\(name(field))' has \(elements.count) entries; at least \(minimum) are needed", schema)
        }
        if let maximum = schema.maxItems, elements.count > maximum {
            throw violation(field, "maxCount", "'\(name(field))' has \(elements.count) entries; at most \(maximum) are accepted", schema)
        }
        guard let items = schema.items else { return }
        for (index, element) in elements.enumerated() {
            try validate(element, items, at: "\(field)[\(index)]")
        }
    }

    // MARK: Objects

    private func checkObject(_ members: [String: JSONValue], _ schema: Schema, at field: String) throws(ContractViolation) {
        let declared = schema.properties.map(\.name)
        if !schema.additionalProperties {
            for key in members.keys.sorted() where !declared.contains(key) {
                let accepted =
                    declared.isEmpty ? "it takes no fields (send no body or {})" : "accepted: \(declared.sorted().joined(separator: ", "))"
                throw ContractViolation(field: path(field, key), rule: "unknown", "'\(path(field, key))' is not a field of this request; \(accepted)")
            }
        }
        for key in schema.required where (members[key] ?? .null) == .null {
            let property = schema.property(key)
            let what = property.flatMap(\.typeText).map { " (\($0))" } ?? ""
            throw ContractViolation(
                field: path(field, key), rule: "required",
                "'\(path(field, key))' is required\(what)" + (property?.describedText.map { ": \($0)" } ?? ""))
        }
        for (key, property) in schema.properties {
            guard let member = members[key], member != .null else { continue }
            try validate(member, property, at: path(field, key))
        }
        if let minimum = schema.minProperties, members.values.filter({ $0 != .null }).count < minimum {
            throw violation(field, schema.rule ?? "nonEmpty", "'\(name(field))' has no fields", schema)
        }
    }

    // MARK: anyOf, oneOf, not

    private func checkAlternatives(_ value: JSONValue, _ schema: Schema, at field: String) throws(ContractViolation) {
        if !schema.anyOf.isEmpty, !schema.anyOf.contains(where: { accepts(value, $0, at: field) }) {
            throw violation(field, schema.rule ?? "anyOf", "'\(name(field))' fits none of the accepted forms", schema)
        }
        guard !schema.oneOf.isEmpty else { return }
        // The branches of the value's type: with one, its own problem is the answer ("title" too long).
        let typed = schema.oneOf.filter { $0.type == nil || $0.accepts(typeOf: value) }
        if typed.count == 1 {
            try validate(value, typed[0], at: field)
            return
        }
        if typed.isEmpty {
            let types = Set(schema.oneOf.compactMap(\.typeText)).sorted()
            throw violation(field, "type", "'\(name(field))' is a JSON \(value.typeName); expected \(types.joined(separator: " or "))", schema)
        }
        let passing = typed.filter { accepts(value, $0, at: field) }.count
        if passing != 1 {
            throw violation(field, schema.rule ?? "oneOf", "'\(name(field))' fits \(passing) of the accepted forms, not exactly one", schema)
        }
    }

    /// A `not` is a list of refused combinations (`not: {anyOf: [...]}`, or one): the first that matches
    /// is named by its `x-field`, `x-rule` and description.
    private func checkNot(_ value: JSONValue, _ not: Schema, at field: String) throws(ContractViolation) {
        for branch in not.anyOf.isEmpty ? [not] : not.anyOf where accepts(value, branch, at: field) {
            let named = branch.field.map { path(field, $0) } ?? (field.isEmpty ? nil : field)
            throw ContractViolation(
                field: named, rule: branch.rule ?? not.rule ?? "not", branch.description ?? "'\(name(field))' has a combination that is refused")
        }
    }

    // MARK: Wording

    private func violation(_ field: String, _ rule: String, _ message: String, _ schema: Schema) -> ContractViolation {
        ContractViolation(field: field.isEmpty ? nil : field, rule: rule, message + (schema.describedText.map { "; \($0)" } ?? ""))
    }

    private func name(_ field: String) -> String { field.isEmpty ? "the request body" : field }

    private func path(_ field: String, _ key: String) -> String { field.isEmpty ? key : "\(field).\(key)" }

    private func lengths(_ schema: Schema) -> String {
        "expected \(schema.minLength ?? 0) to \(schema.maxLength.map(String.init) ?? "any number of") characters"
    }

    /// `the control character U+000D`, `the format character U+202E`, `'g' (U+0067)`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(format: "%04X", scalar.value)
        switch scalar.properties.generalCategory {
        case .control: return "the control character \(code)"
        case .format: return "the format character \(code)"
        default: return "'\(Character(scalar))' (\(code))"
        }
    }
}

extension Schema {
    /// `a string`, `an object`, … for messages.
    var typeText: String? { type.map(Self.typeText) ?? allOf.lazy.compactMap(\.typeText).first }

    static func typeText(_ type: String) -> String {
        switch type {
        case "object": return "an object"
        case "array": return "an array"
        case "integer": return "a whole number"
        case "boolean": return "true or false"
        default: return "a \(type)"
        }
    }

    /// The description, or that of the schema it extends.
    var describedText: String? { description ?? allOf.lazy.compactMap(\.describedText).first }

    /// Whether `value`'s JSON type is this schema's `type`.
    func accepts(typeOf value: JSONValue) -> Bool { type.map { Self.isOfType($0, value) } ?? false }

    /// Whether `value`'s JSON type is `type` (an `integer` is any number here; its wholeness is a rule).
    static func isOfType(_ type: String, _ value: JSONValue) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object), ("number", .number), ("integer", .number): return true
        default: return false
        }
    }
}

extension JSONValue {
    /// An enum value as a message lists it: strings bare, others as JSON.
    fileprivate var enumText: String { stringValue ?? description }
}
