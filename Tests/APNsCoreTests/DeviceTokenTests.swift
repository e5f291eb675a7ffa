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

    @Test func shortenedNeverShowsTheWholeToken() throws {
        let token = try DeviceToken(hex: "0123456789abcdef0123456789abcdef")
        #expect(token.shortened == "0123…cdef")
        #expect(!token.description.contains("456789abcdef0123"))
    }

    @Test func bytesInitializer() {
        #expect(DeviceToken(bytes: [0x00, 0xff, 0x10]).hex == "00ff10")
    }
}
