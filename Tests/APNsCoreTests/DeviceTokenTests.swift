import APNsCore
import Testing

@Suite struct DeviceTokenTests {
    @Test func acceptsAnyEvenLengthHexAndLowercases() throws {
        let long = String(repeating: "AB", count: 80)
        let token = try DeviceToken(hex: long)
        #expect(token.hex == long.lowercased())
        #expect(token.hex.count == 160)
    }

    @Test func rejectsEmptyNonHexAndOddLength() {
        #expect(throws: DeviceToken.ValidationError.empty) { try DeviceToken(hex: "") }
        #expect(throws: DeviceToken.ValidationError.notHex(position: 2, character: "z")) { try DeviceToken(hex: "abzd") }
        #expect(throws: DeviceToken.ValidationError.oddLength(3)) { try DeviceToken(hex: "abc") }
    }

    /// The error names the character a person typed and its position in characters, not bytes.
    @Test func nonASCIIIsNamedByCharacter() {
        #expect(throws: DeviceToken.ValidationError.notHex(position: 3, character: "é")) { try DeviceToken(hex: "abcé") }
        #expect(throws: DeviceToken.ValidationError.notHex(position: 1, character: "🦊")) { try DeviceToken(hex: "a🦊bc") }
        #expect(throws: DeviceToken.ValidationError.notHex(position: 4, character: " ")) { try DeviceToken(hex: "abcd ef0") }
        #expect(throws: DeviceToken.ValidationError.notHex(position: 0, character: "<")) { try DeviceToken(hex: "<abcd>") }
    }

    @Test func shortenedNeverShowsTheWholeToken() throws {
        let token = try DeviceToken(hex: "0123456789abcdef0123456789abcdef")
        #expect(token.shortened == "0123…cdef")
        #expect(!token.description.contains("456789abcdef0123"))
    }

    @Test func bytesInitializer() {
        #expect(DeviceToken(bytes: [0x00, 0xff, 0x10]).hex == "00ff10")
    }
}
