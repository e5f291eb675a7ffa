import Foundation
import LiveActivity
import Testing

@Suite struct JSONParserTests {
    static let documents = [
        #"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}}}"#,
        #"[1, -2, 3.5, -0.25e2, 1E3, 0, true, false, null, "x", [], {}]"#,
        #"{"emoji":"🍏🍑","escaped":"a\"b\\c\/d\b\f\n\r\t","unicode":"\u00e9\u4e2d\ud83d\ude00"}"#,
        #"  {"nested": {"deeper": [{"a": [1, {"b": null}]}]}}  "#,
        #""just a string""#,
        "42",
    ]

    /// The parser agrees with Foundation's JSONDecoder on every document.
    @Test(arguments: documents)
    func agreesWithFoundation(_ text: String) throws {
        let data = Data(text.utf8)
        let parsed = try JSONValue.parse(data)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(parsed == decoded)
    }

    @Test func escapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(#"{"s":"\u00e9 \ud83d\ude00 \n"}"#)
        #expect(value["s"] == "é 😀 \n")
    }

    @Test func serializedOutputParsesBackEqual() throws {
        let value: JSONValue = ["a": [1, 2.5, "three", nil, true], "b": ["c": "d\"e"]]
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":}", "{\"a\" 1}", "tru", "nul", "01", "1.", "-", "1e", "\"abc",
        "\"a\u{01}b\"", "\"\\x\"", "\"\\ud83d\"", "{\"a\":1} x", "[1 2]", "{1:2}",
    ])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(text) }
    }

    @Test func errorsSayWhere() {
        do {
            _ = try JSONValue.parse("{\"a\": tru}")
            Issue.record("must not parse")
        } catch {
            #expect(error.description.contains("at byte 6"))
        }
    }

    /// After a member or an element, the error names what was expected and in which container.
    @Test(arguments: [
        (#"{"a":1 "b":2}"#, "expected ',' or '}' in an object at byte 7"),
        (#"{"a":1"#, "unexpected end of input in an object at byte 6"),
        ("[1 2]", "expected ',' or ']' in an array at byte 3"),
        ("[1", "unexpected end of input in an array at byte 2"),
    ])
    func separatorErrorsNameTheContainer(_ text: String, _ detail: String) {
        #expect(throws: JSONValue.ParseError.invalidJSON(detail)) { try JSONValue.parse(text) }
    }

    @Test func stringsThatAreNotUTF8AreRefusedByName() {
        // `{"alert":{"title":"bad-\xff\xfe"},"groups":["ok","\xc3"]}`: raw bytes, not escapes.
        let title = Data(#"{"alert":{"title":"bad-"#.utf8) + Data([0xFF, 0xFE]) + Data(#""}}"#.utf8)
        #expect(throws: JSONValue.ParseError.invalidUTF8(path: "alert.title", byte: 19)) { try JSONValue.parse(title) }
        let element = Data(#"{"groups":["ok",""#.utf8) + Data([0xC3]) + Data(#""]}"#.utf8)
        #expect(throws: JSONValue.ParseError.invalidUTF8(path: "groups[1]", byte: 17)) { try JSONValue.parse(element) }
        let escaped = Data(#"{"k":"\n"#.utf8) + Data([0xED, 0xA0, 0x80]) + Data(#""}"#.utf8)  // an encoded surrogate
        #expect(throws: JSONValue.ParseError.invalidUTF8(path: "k", byte: 6)) { try JSONValue.parse(escaped) }
        #expect(JSONValue.ParseError.invalidUTF8(path: "alert.title", byte: 19).description.contains("'alert.title' is not UTF-8"))
        #expect((try? JSONValue.parse(Data(#"{"t":"caf\#u{e9} ☕"}"#.utf8))) == ["t": "caf\u{e9} ☕"])
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONValue.parse(fine)) != nil)
    }
}
