import Foundation
import LiveActivity
import Testing

/// A `JSONValue` decoded from a decoder that holds one already parsed is that value, taken whole: the decoder's
/// containers are never asked (the server decodes each request body from the value it parsed and checked).
@Suite struct JSONValueBackedDecoderTests {
    /// A decoder whose containers all fail: only the handoff can decode from it.
    private struct Parsed: JSONValueBackedDecoder {
        struct Asked: Error {}
        let jsonValue: JSONValue
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw Asked() }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Asked() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Asked() }
    }

    @Test func aParsedValueIsTakenWhole() throws {
        let state: JSONValue = ["status": "On the way", "etaMinutes": 12, "driver": ["name": "Ana", "rating": 4.5], "stops": [1, .null]]
        #expect(try JSONValue(from: Parsed(jsonValue: state)) == state)
        #expect(try JSONValue(from: Parsed(jsonValue: .null)) == .null)
    }

    /// Any other decoder still reads the value through its containers.
    @Test func anotherDecoderReadsTheText() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"hp":2,"tags":["a",null],"ok":true}"#.utf8))
        #expect(decoded == ["hp": 2, "tags": ["a", .null], "ok": true])
    }
}
