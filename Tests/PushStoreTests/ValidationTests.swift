@testable import PushStore
import Testing

/// The identifier rule every id the store takes goes through: 1 to `max` characters, no control characters.
@Suite struct ValidationTests {
    @Test func printableIdsPass() throws {
        try Validation.identifier("hero-42_party.1", field: "activityId")
        try Validation.identifier(String(repeating: "x", count: 128), field: "activityId")
        // Non-ASCII text is counted in characters, not bytes: 128 foxes are 512 bytes and still fit.
        try Validation.identifier(String(repeating: "🦊", count: 128), field: "activityId")
        try Validation.identifier("héros", field: "activityId")
    }

    @Test func emptyTooLongAndControlCharactersAreNamed() {
        #expect(throws: PushStoreError.invalidInput(field: "activityId", rule: "must not be empty; give 1 to 128 characters")) {
            try Validation.identifier("", field: "activityId")
        }
        #expect(throws: PushStoreError.invalidInput(field: "activityId", rule: "has 129 characters; at most 128 are accepted")) {
            try Validation.identifier(String(repeating: "é", count: 129), field: "activityId")
        }
        for bad in ["tab\there", "new\nline", "del\u{7F}", "nul\u{0}", "c1\u{85}control"] {
            #expect(throws: PushStoreError.invalidInput(field: "userId", rule: "contains a control character; only printable text is accepted")) {
                try Validation.identifier(bad, field: "userId")
            }
        }
    }
}
