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

extension UUID {
    /// Reads the canonical 8-4-4-4-12 form, hex digits in either case; nil for anything else. Read
    /// directly: Foundation's `UUID(uuidString:)` parses through `sscanf` on Linux, and a push's id is read
    /// back for every answer and every outbox row.
    public init?(canonical text: String) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var utf8 = text.utf8.makeIterator()
            var count = 0
            var byte = 0
            var high: UInt8?
            while let character = utf8.next() {
                count += 1
                if count == 9 || count == 14 || count == 19 || count == 24 {
                    guard character == UInt8(ascii: "-") else { return false }
                    continue
                }
                guard byte < 16, let nibble = Self.nibble(character) else { return false }
                if let first = high {
                    out[byte] = first << 4 | nibble
                    byte += 1
                    high = nil
                } else {
                    high = nibble
                }
            }
            return count == 36 && byte == 16
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
