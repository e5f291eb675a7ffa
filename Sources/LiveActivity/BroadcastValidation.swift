import APNsCore
import Foundation

extension LiveActivityPayload {
    /// The largest body APNs accepts for a broadcast.
    public static let maximumBroadcastSize = APNsBroadcastRequest.maximumPayloadSize

    /// Checks the payload as a broadcast (docs/apns-protocol.md §10.2): event `update` or `end` (a
    /// broadcast cannot start an activity), then the same `aps` rules as a push to an update token, with
    /// a 5120-byte limit. Throws the first problem found.
    public func validateForBroadcast() throws(LiveActivityBroadcastError) {
        if event == .start { throw .startNotBroadcastable }
        if let first = problems(maximumSize: Self.maximumBroadcastSize).first { throw .invalidPayload(first) }
    }
}
