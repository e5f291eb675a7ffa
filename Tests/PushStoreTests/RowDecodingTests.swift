import Testing

@testable import PushStore

/// Reading stored columns back: a malformed value is a database error naming the column, never a crash.
@Suite struct RowDecodingTests {
    @Test func groupsColumnIsAJSONArrayOfStrings() throws {
        #expect(try RowDecoding.groups("[]") == [])
        #expect(try RowDecoding.groups(#"["party-42","g\"quoted\"","héros"]"#) == ["party-42", #"g"quoted""#, "héros"])
        #expect(try RowDecoding.groups(RowDecoding.groupsJSON(["b", "a", "b"])) == ["a", "b"])
        let awkward = [#"g"quoted""#, "héros", "a/b", "tab\tand\\", "\u{1}"]
        #expect(try RowDecoding.groups(RowDecoding.groupsJSON(awkward)) == awkward.sorted())
        #expect(RowDecoding.groupsJSON([]) == "[]")
    }

    @Test func malformedGroupsAreADatabaseError() {
        for text in [#"{"a":1}"#, "[1]", #"["a",2]"#, "not json", ""] {
            #expect(throws: PushStoreError.database(detail: "column 'groups_json' holds '\(text)', not a JSON array of strings")) {
                try RowDecoding.groups(text)
            }
        }
    }
}
