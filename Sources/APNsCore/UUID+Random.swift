import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's generator (`getrandom` on Linux). Foundation's `UUID()`
    /// opens, reads and closes `/dev/urandom` on each call on Linux: about 5 µs, once per push accepted.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10 (RFC 4122)
            return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
        }
    }
}
