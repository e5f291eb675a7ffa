import APIContract
import Foundation
import LiveActivity
import Testing

/// The validator, keyword by keyword, on a small contract of its own: each refusal names the field (with
/// its path), the rule and what is accepted.
@Suite struct SchemaValidatorTests {
    static let contract = try! APIContract(
        text: #"""
            {"openapi": "3.0.3", "paths": {"/things": {"post": {"operationId": "make",
              "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}},
             "/things/{id}": {"get": {"operationId": "read", "parameters": [{"name": "id", "in": "path", "required": true,
               "schema": {"type": "string", "maxLength": 8, "pattern": "^[a-z]+$", "x-rule": "lowercase"}}]}}},
             "components": {"schemas": {
              "Name": {"type": "string", "minLength": 1, "maxLength": 5, "pattern": "^[^\\u0000-\\u001F]+$", "x-rule": "invalid",
                "description": "1 to 5 characters."},
              "Text": {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "object", "additionalProperties": false,
                "required": ["key"], "properties": {"key": {"type": "string"}}}]},
              "When": {"x-check": "date", "oneOf": [{"type": "number", "minimum": 100, "maximum": 200, "exclusiveMaximum": true}]},
              "Thing": {"type": "object", "additionalProperties": false, "required": ["name"],
                "not": {"anyOf": [{"required": ["a", "b"], "x-rule": "exclusive", "x-field": "b", "description": "a and b are not both given."}]},
                "properties": {
                  "name": {"$ref": "#/components/schemas/Name"},
                  "size": {"type": "integer", "nullable": true, "minimum": 1, "maximum": 10},
                  "kind": {"type": "string", "enum": ["big", "small"]},
                  "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"$ref": "#/components/schemas/Name"}},
                  "text": {"$ref": "#/components/schemas/Text"},
                  "header": {"type": "string", "maxLength": 10, "x-maxBytes": 4},
                  "when": {"$ref": "#/components/schemas/When"},
                  "a": {"type": "boolean"}, "b": {"type": "boolean"}}}}}}
            """#)

    func refusal(_ body: String) throws -> ContractViolation? {
        let value = try JSONValue.parse(body)
        do throws(ContractViolation) {
            try Self.contract.operation("make").checkBody(value, now: Date(timeIntervalSince1970: 150))
            return nil
        } catch {
            return error
        }
    }

    @Test(
        arguments: [
            (#"{"name": "ok"}"#, nil, nil),
            (#"{"name": "ok", "size": null, "tags": null}"#, nil, nil),
            (#"{}"#, "name", "required"),
            (#"{"name": null}"#, "name", "required"),
            (#"{"name": "ok", "nmae": 1}"#, "nmae", "unknown"),
            (#"{"name": 5}"#, "name", "type"),
            (#"{"name": ""}"#, "name", "nonEmpty"),
            (#"{"name": "toolong"}"#, "name", "maxLength"),
            (#"{"name": "a\u0007b"}"#, "name", "invalid"),
            (#"{"name": "ok", "size": 2.5}"#, "size", "integer"),
            (#"{"name": "ok", "size": 11}"#, "size", "range"),
            (#"{"name": "ok", "kind": "medium"}"#, "kind", "oneOf"),
            (#"{"name": "ok", "tags": ["a", "b", "c"]}"#, "tags", "maxCount"),
            (#"{"name": "ok", "tags": []}"#, "tags", "minCount"),
            (#"{"name": "ok", "tags": ["a", ""]}"#, "tags[1]", "nonEmpty"),
            (#"{"name": "ok", "text": "long"}"#, "text", "maxLength"),
            (#"{"name": "ok", "text": {"kee": "x"}}"#, "text.kee", "unknown"),
            (#"{"name": "ok", "text": 3}"#, "text", "type"),
            (#"{"name": "ok", "header": "ééé"}"#, "header", "maxBytes"),
            (#"{"name": "ok", "when": 99}"#, "when", "dateRange"),
            (#"{"name": "ok", "when": 200}"#, "when", "dateRange"),
            (#"{"name": "ok", "when": "yesterday"}"#, "when", "date"),
            (#"{"name": "ok", "when": "+10s"}"#, nil, nil),
            (#"{"name": "ok", "a": true, "b": false}"#, "b", "exclusive"),
            (#"[1]"#, nil, "object"),
        ] as [(String, String?, String?)])
    func eachKeywordNamesItsFieldAndRule(body: String, field: String?, rule: String?) throws {
        let violation = try refusal(body)
        #expect(violation?.field == field && violation?.rule == rule, "\(body): \(violation.map(String.init(describing:)) ?? "accepted")")
    }

    @Test func aPatternRefusalNamesTheCharacterAndItsPosition() throws {
        let violation = try #require(try refusal(#"{"name": "ab\rc"}"#))
        #expect(violation.message.contains("the control character U+000D at position 3"), "\(violation.message)")
        #expect(violation.message.hasSuffix("1 to 5 characters."), "the schema's description says what is accepted: \(violation.message)")
    }

    @Test func theBytesOfATextAreCheckedBeforeItsCharactersAreCounted() throws {
        // 21 scalars of 41 bytes: over the 20 bytes that 5 characters may take, refused before counting.
        let violation = try #require(try refusal(#"{"name": "e\#(String(repeating: "\u{301}", count: 20))"}"#))
        #expect(violation.rule == "maxBytes", "\(violation)")
    }

    /// Characters are Unicode scalars, as JSON Schema counts them (a fuzzer and a client's validator
    /// agree): "e" and 5 combining accents look like one letter but are 6 characters, over 5.
    @Test func charactersAreUnicodeScalars() throws {
        let violation = try #require(try refusal(#"{"name": "e\#(String(repeating: "\u{301}", count: 5))"}"#))
        #expect(violation.rule == "maxLength" && violation.message.contains("has 6 characters"), "\(violation)")
        #expect(try refusal(#"{"name": "🦊🦊🦊🦊🦊"}"#) == nil, "5 scalars of 4 bytes each")
    }

    @Test func aMissingBodyIsRequiredWhenTheOperationSaysSo() throws {
        #expect(throws: ContractViolation.self) { try Self.contract.operation("make").checkBody(nil, now: Date()) }
    }

    @Test func parametersAreCheckedAgainstTheirSchema() throws {
        let read = Self.contract.operation("read")
        try read.checkParameter("id", "abc", now: Date())
        do throws(ContractViolation) {
            try read.checkParameter("id", "aBc", now: Date())
            Issue.record("an upper-case letter passed")
        } catch {
            #expect(error.field == "id" && error.rule == "lowercase" && error.message.contains("'B' (U+0042) at position 2"), "\(error)")
        }
    }

    @Test func aDocumentNamingACheckTheServerLacksIsRefusedWhenLoaded() {
        let text =
            #"{"paths": {"/x": {"post": {"operationId": "x", "requestBody": {"content": {"application/json": {"schema": {"x-check": "zodiac"}}}}}}}}"#
        #expect(throws: ContractDocumentError.self) { try APIContract(text: text) }
    }
}
