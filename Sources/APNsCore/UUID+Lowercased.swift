import Foundation

extension UUID {
    /// The canonical lowercase 8-4-4-4-12 form, as `apns-id`, `apns-request-id` and our API write ids.
    /// Written directly: Foundation's `uuidString` formats through `snprintf` on Linux, once per push.
    public var lowercased: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var index = 0
                for (offset, byte) in bytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        out[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    out[index] = Self.hexDigit(byte >> 4)
                    out[index + 1] = Self.hexDigit(byte & 0x0F)
                    index += 2
                }
                return index
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
