import Crypto
import Foundation

extension GroupSend {
    /// The push id (and `apns-id`) of a group send's push to one activity: derived, so that a page sent
    /// again after a crash sends and records the same push, not a new one, and so that a page record
    /// names its pushes without storing their ids.
    package static func pushID(sendID: UUID, activityID: String) -> UUID {
        var hasher = SHA256()
        withUnsafeBytes(of: sendID.uuid) { hasher.update(bufferPointer: $0) }
        hasher.update(data: Data(activityID.utf8))
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: a name-based UUID of our own
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
