import APNsCore
import Foundation
import Testing

struct UUIDRandomTests {
    /// Version 4, RFC 4122 variant, as Foundation's `UUID()` makes them; never the same twice.
    @Test func randomIDsAreVersion4AndDistinct() {
        let ids = (0..<10_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.uuid.6 >> 4 == 4 && id.uuid.8 >> 6 == 0b10, "\(id)")
        }
        // Each of the 122 random bits is set in some id and clear in another.
        let set = ids.reduce(into: [UInt8](repeating: 0, count: 16)) { bits, id in
            withUnsafeBytes(of: id.uuid) { for (index, byte) in $0.enumerated() { bits[index] |= byte } }
        }
        let clear = ids.reduce(into: [UInt8](repeating: 0xFF, count: 16)) { bits, id in
            withUnsafeBytes(of: id.uuid) { for (index, byte) in $0.enumerated() { bits[index] &= byte } }
        }
        #expect(set == [UInt8](repeating: 0xFF, count: 16).enumerated().map { $0.offset == 6 ? 0x4F : $0.offset == 8 ? 0xBF : 0xFF })
        #expect(clear == [UInt8](repeating: 0, count: 16).enumerated().map { $0.offset == 6 ? 0x40 : $0.offset == 8 ? 0x80 : 0 })
    }
}
