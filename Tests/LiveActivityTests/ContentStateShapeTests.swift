import Foundation
import LiveActivity
import Testing

/// The shape's verdicts against Foundation's own: each payload is decoded by a default `JSONDecoder` into
/// a Codable ContentState and checked against that type's shape; both must agree, rule included.
@Suite struct ContentStateShapeTests {
    struct Hero: Codable {
        var name: String
        var level: Int
    }

    struct State: Codable {
        var health: Double
        var score: Int
        var event: String
        var note: String?
        var endsAt: Date
        var avatar: Data?
        var hero: Hero
        var tags: [String]
    }

    static let shapeText = """
        {"type": "object",
         "properties": {
           "health": {"type": "number"}, "score": {"type": "integer"}, "event": {"type": "string"},
           "note": {"type": ["string", "null"]}, "endsAt": {"type": "number", "description": "seconds since 2001"},
           "avatar": {"type": "string", "contentEncoding": "base64"},
           "hero": {"type": "object", "properties": {"name": {"type": "string"}, "level": {"type": "integer"}}, "required": ["name", "level"]},
           "tags": {"type": "array", "items": {"type": "string"}}},
         "required": ["health", "score", "event", "endsAt", "hero", "tags"]}
        """

    static func shape() throws -> ContentStateShape {
        try ContentStateShape(json: try JSONValue.parse(shapeText))
    }

    static let valid: [String: JSONValue] = [
        "health": 0.5, "score": 3, "event": "found a sword", "endsAt": 786_000_000, "hero": ["name": "Panda", "level": 2], "tags": ["a"],
    ]

    /// One case: a change to the valid state, and the rule the decoder fails with (nil: it decodes).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var change: @Sendable (inout [String: JSONValue]) -> Void
        var violation: (path: String, rule: ContentStateViolation.Rule)?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "valid", change: { _ in }, violation: nil),
        Case(name: "extra key", change: { $0["unknown"] = "x" }, violation: nil),
        Case(name: "omitted optional", change: { $0["note"] = nil }, violation: nil),
        Case(name: "null optional", change: { $0["note"] = .null }, violation: nil),
        Case(name: "whole double for Int", change: { $0["score"] = 4.0 }, violation: nil),
        Case(name: "integer for Double", change: { $0["health"] = 1 }, violation: nil),
        Case(name: "base64 data", change: { $0["avatar"] = "AAEC" }, violation: nil),
        Case(name: "missing key", change: { $0["health"] = nil }, violation: ("health", .missing)),
        Case(name: "misspelt key", change: { $0["helth"] = $0.removeValue(forKey: "health") }, violation: ("health", .missing)),
        Case(name: "null for non-optional", change: { $0["event"] = .null }, violation: ("event", .null)),
        Case(name: "string for number", change: { $0["health"] = "high" }, violation: ("health", .type)),
        Case(name: "fraction for Int", change: { $0["score"] = 2.5 }, violation: ("score", .type)),
        Case(name: "ISO date for Date", change: { $0["endsAt"] = "2026-11-28T10:00:00Z" }, violation: ("endsAt", .type)),
        Case(name: "number for Bool-less string", change: { $0["event"] = 1 }, violation: ("event", .type)),
        Case(name: "not base64", change: { $0["avatar"] = "not base64!" }, violation: ("avatar", .type)),
        Case(name: "nested missing", change: { $0["hero"] = ["name": "Panda"] }, violation: ("hero.level", .missing)),
        Case(name: "element of another type", change: { $0["tags"] = ["a", 2] }, violation: ("tags[1]", .type)),
        Case(name: "null element", change: { $0["tags"] = ["a", .null] }, violation: ("tags[1]", .null)),
    ]

    @Test(arguments: cases) func agreesWithJSONDecoder(_ testCase: Case) throws {
        var state = Self.valid
        testCase.change(&state)
        let value = JSONValue.object(state)
        let decodes = (try? JSONDecoder().decode(State.self, from: value.serialized())) != nil
        let violations = try Self.shape().check(value)
        #expect(decodes == (testCase.violation == nil), "JSONDecoder: \(decodes)")
        #expect(violations.map { "\($0.path) \($0.rule)" } == (testCase.violation.map { ["\($0.path) \($0.rule)"] } ?? []))
    }

    @Test func rootThatIsNotAnObjectIsATypeViolation() throws {
        #expect(try Self.shape().check([1, 2]) == [ContentStateViolation(path: "", rule: .type, expected: "object", actual: "array")])
    }

    @Test func canonicalFormRoundTrips() throws {
        let shape = try Self.shape()
        #expect(try ContentStateShape(json: shape.json) == shape)
        // `nullable: true` and a type list with null mean the same.
        let a = try ContentStateShape(json: try JSONValue.parse(#"{"type":"object","properties":{"n":{"type":"string","nullable":true}}}"#))
        let b = try ContentStateShape(json: try JSONValue.parse(#"{"type":"object","properties":{"n":{"type":["string","null"]}}}"#))
        #expect(a == b)
    }

    @Test(arguments: [
        (#"{"type":"array"}"#, "type", "object"),
        (#"{"type":"object","additionalProperties":false}"#, "additionalProperties", "unknown"),
        (#"{"type":"object","properties":{"a":{"type":"date"}}}"#, "properties.a.type", "type"),
        (#"{"type":"object","properties":{"a":{"type":[]}}}"#, "properties.a.type", "type"),
        (#"{"type":"object","properties":{"a":{"type":["string","string"]}}}"#, "properties.a.type", "type"),
        (#"{"type":"object","required":"a"}"#, "required", "array"),
        (#"{"type":"object","properties":{"a":{"type":"string","contentEncoding":"hex"}}}"#, "properties.a.contentEncoding", "base64"),
        (#"{"type":"object","properties":{"a":3}}"#, "properties.a", "object"),
        (#"{"type":"object","properties":{"a":{"description":{}}}}"#, "properties.a.description", "type"),
    ])
    func badShapesNameTheKeyword(_ text: String, _ path: String, _ rule: String) throws {
        let error = #expect(throws: ContentStateShapeError.self) { try ContentStateShape(json: try JSONValue.parse(text)) }
        #expect(error?.path == path)
        #expect(error?.rule == rule)
    }

    /// As in JSON Schema: a required name without a schema is present with any value; several types are any of
    /// them (not checked further); keywords of another type's node have no effect.
    @Test func jsonSchemaMeaningsTheDecoderShares() throws {
        let shape = try ContentStateShape(
            json: try JSONValue.parse(
                #"{"type":"object","required":["id"],"properties":{"v":{"type":["string","number"]},"n":{"type":"number","items":{"type":"string"},"contentEncoding":"base64"}}}"#
            ))
        #expect(shape.check(["id": nil]).map { "\($0.path) \($0.rule)" } == ["id null"])
        #expect(shape.check(["id": [1], "v": 2, "n": 3]).isEmpty)
        #expect(shape.check(["id": "x", "v": true]).isEmpty, "several types: not checked")
        #expect(shape.check([:]).map(\.path) == ["id"])
    }

    @Test func mergeKeepsWhatEitherVersionNeeds() throws {
        let old = ContentStateShape(properties: ["level": .init(.integer), "note": .init(.string)], required: ["level", "note"])
        let new = ContentStateShape(
            properties: ["level": .init(.number), "eta": .init(.number), "note": .init(.string)], required: ["eta", "level"])
        let merged = try old.merged(with: new)
        #expect(merged.root.required == ["level", "note", "eta"])
        #expect(merged.root.properties["level"]?.kind == .integer)
        #expect(merged.check(["level": 1, "note": "x", "eta": 2]).isEmpty)
        #expect(merged.check(["level": 1, "eta": 2]).map(\.path) == ["note"])
        let clash = ContentStateShape(properties: ["level": .init(.string)], required: ["level"])
        #expect(throws: ContentStateShapeConflict.self) { try old.merged(with: clash) }
    }

    @Test func inferenceRequiresWhatTheSampleHasExceptTheOptionalPaths() throws {
        let sample: JSONValue = ["health": 0.5, "hero": ["name": "Panda", "title": "Sir"], "tags": ["a"], "gone": .null]
        let shape = ContentStateShape(inferringFrom: sample, optional: ["hero.title"])
        #expect(shape.root.required == ["health", "hero", "tags"])
        #expect(shape.root.properties["hero"]?.required == ["name"])
        #expect(shape.root.properties["tags"]?.items?.kind == .string)
        #expect(shape.check(["health": 1, "hero": ["name": "Ava"], "tags": []]).isEmpty)
        #expect(shape.check(["health": 1, "hero": ["title": "Sir"], "tags": []]).map(\.path) == ["hero.name"])
    }

    @Test func flatSchemaConverts() {
        let schema = ContentStateSchema(fields: ["level": FieldType(.number), "note": FieldType(.string, optional: true), "at": FieldType(.date)])
        let shape = ContentStateShape(schema)
        #expect(shape.root.required == ["level", "at"])
        #expect(shape.check(["level": 1, "at": 2]).isEmpty)
    }
}
