import Foundation
import Testing

@testable import LiveActivity

@Suite struct SchemaTests {
    static let ranger: JSONValue = [
        "currentHealthLevel": 0.941, "eventDescription": "Power Panda found a sword!",
        "isActive": true, "tags": ["a"], "stats": ["hp": 1], "note": nil,
    ]

    @Test func inferenceMapsJSONTypesAndSkipsNulls() {
        let schema = ContentStateSchema(inferringFrom: Self.ranger)
        #expect(
            schema.fields == [
                "currentHealthLevel": FieldType(.number),
                "eventDescription": FieldType(.string),
                "isActive": FieldType(.boolean),
                "tags": FieldType(.array),
                "stats": FieldType(.object),
            ])
        #expect(schema.check(Self.ranger).isEmpty)
        // A whole number is still inferred as number: 0.0 is a Double in the app.
        #expect(ContentStateSchema(inferringFrom: ["level": 0]).fields["level"] == FieldType(.number))
        #expect(ContentStateSchema(inferringFrom: "text").fields.isEmpty)
    }

    @Test func wrongTypeIsReportedInTheDocumentedForm() {
        let schema = ContentStateSchema(inferringFrom: Self.ranger)
        var state = Self.ranger.objectValue ?? [:]
        state["currentHealthLevel"] = "high"
        let mismatches = schema.check(.object(state))
        #expect(
            mismatches == [
                SchemaMismatch(field: "currentHealthLevel", problem: .wrongType(expected: .number, actual: "string"))
            ])
        #expect(mismatches.first?.description == "currentHealthLevel: expected number, got string")
    }

    @Test func missingRequiredFieldsAreReportedSortedAndExtraKeysIgnored() {
        let schema = ContentStateSchema(fields: ["b": FieldType(.string), "a": FieldType(.number)])
        let mismatches = schema.check(["unknown": 1])
        #expect(mismatches.map(\.field) == ["a", "b"])
        #expect(mismatches.first?.description == "a: missing (expected number)")
    }

    @Test func optionalFieldsMayBeMissingOrNullButNotWrong() {
        let schema = ContentStateSchema(fields: ["note": FieldType(.string, optional: true)])
        #expect(schema.check([:]).isEmpty)
        #expect(schema.check(["note": nil]).isEmpty)
        #expect(schema.check(["note": 3]).first?.description == "note: expected string, got number")
        // A required field that is null is missing.
        let required = ContentStateSchema(fields: ["note": FieldType(.string)])
        #expect(required.check(["note": nil]) == [SchemaMismatch(field: "note", problem: .missing(expected: .string))])
    }

    @Test func integerRejectsFractionsLikeJSONDecoder() {
        let schema = ContentStateSchema(fields: ["score": FieldType(.integer)])
        #expect(schema.check(["score": 3]).isEmpty)
        #expect(schema.check(["score": 3.0]).isEmpty)
        let mismatches = schema.check(["score": 3.5])
        #expect(mismatches == [SchemaMismatch(field: "score", problem: .notWholeNumber(3.5))])
        #expect(mismatches.first?.description == "score: expected integer, got 3.5 (not a whole number)")
    }

    @Test func dateIsANumberAndDataIsBase64() {
        let schema = ContentStateSchema(fields: ["endsAt": FieldType(.date), "avatar": FieldType(.data)])
        #expect(schema.check(["endsAt": 707_644_800.5, "avatar": "AQID"]).isEmpty)
        let wrong = schema.check(["endsAt": "2026-11-22T10:00:00Z", "avatar": "not base64!"])
        #expect(
            wrong.map(\.description) == [
                "avatar: expected data (a base64 string), got a string that is not base64",
                "endsAt: expected date (seconds since 2001-01-01), got string",
            ])
    }

    @Test func nonObjectContentState() {
        let mismatches = ContentStateSchema(fields: [:]).check([1, 2])
        #expect(mismatches == [SchemaMismatch(field: "content-state", problem: .notAnObject(actual: "array"))])
    }

    @Test func codableFormIsAPlainObjectOfTypeNames() throws {
        let json = #"{"currentHealthLevel":"number","eventDescription":"string","note":"string?","avatar":"data"}"#
        let schema = try JSONDecoder().decode(ContentStateSchema.self, from: Data(json.utf8))
        #expect(
            schema.fields == [
                "currentHealthLevel": FieldType(.number), "eventDescription": FieldType(.string),
                "note": FieldType(.string, optional: true), "avatar": FieldType(.data),
            ])
        let encoded = try JSONValue.parse(JSONEncoder().encode(schema))
        #expect(encoded == ["currentHealthLevel": "number", "eventDescription": "string", "note": "string?", "avatar": "data"])
    }

    @Test func unknownTypeNameIsADecodingErrorListingAcceptedNames() {
        let json = #"{"level":"float"}"#
        do {
            _ = try JSONDecoder().decode(ContentStateSchema.self, from: Data(json.utf8))
            Issue.record("expected a decoding error")
        } catch {
            let text = "\(error)"
            #expect(text.contains("unknown field type 'float'"))
            #expect(text.contains("string, number, integer, boolean, object, array, date, data"))
        }
        #expect(FieldType(name: "number?") == FieldType(.number, optional: true))
        #expect(FieldType(name: "?") == nil)
        #expect(FieldType(name: "Number") == nil)
    }
}
