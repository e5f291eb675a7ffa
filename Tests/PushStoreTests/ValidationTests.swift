import Testing

@testable import PushStore

/// The identifier rule every id the store takes goes through: 1 to `max` characters, no control characters.
@Suite struct ValidationTests {
    @Test func printableIDsPass() throws {
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

/// Ids are limited in bytes as well as characters (a character is a grapheme cluster, which can hold
/// any number of scalars), and invisible format characters are refused like control characters.
@Suite struct IdentifierHardeningTests {
    @Test func oneCharacterOfTenThousandBytesIsRefused() {
        let heavy = "e" + String(repeating: "\u{301}", count: 5_000)
        #expect(heavy.count == 1 && heavy.utf8.count == 10_001)
        #expect(
            throws: PushStoreError.invalidInput(
                field: "activityId", rule: "is 10001 bytes of UTF-8; at most 512 are accepted (4 for each of the 128 characters)")
        ) {
            try Validation.identifier(heavy, field: "activityId")
        }
    }

    @Test func formatCharactersAreRefused() {
        for (bad, scalar) in [
            ("evil\u{202E}txt", "U+202E"), ("zero\u{200B}width", "U+200B"), ("\u{FEFF}bom", "U+FEFF"), ("soft\u{AD}hyphen", "U+00AD"),
        ] {
            #expect(
                throws: PushStoreError.invalidInput(
                    field: "groups[0]",
                    rule:
                        "contains the format character \(scalar); ids are visible text: no Unicode format characters (category Cf, e.g. U+200B, U+202E, U+FEFF)"
                )
            ) {
                try Validation.identifier(bad, field: "groups[0]")
            }
        }
    }
}
