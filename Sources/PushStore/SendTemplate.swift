import APNsCore
import Foundation

/// What every push of a send to many (a group send, an audience start) is made from: the complete payload
/// with its timestamp, and the options the request asked for. Fixed when the send is accepted.
package struct SendTemplate: Sendable, Hashable, Codable {
    /// The complete body sent to APNs, with `timestamp` as its `aps.timestamp`.
    package var payload: Data
    package var timestamp: Date
    package var requestedPriority: APNsPriority
    package var importance: PushImportance
    /// `apns-collapse-id`, at most 64 bytes.
    package var collapseKey: String?
    /// `apns-expiration`; nothing is sent after it.
    package var expiration: Date?

    package init(
        payload: Data, timestamp: Date, requestedPriority: APNsPriority, importance: PushImportance, collapseKey: String? = nil,
        expiration: Date? = nil
    ) {
        self.payload = payload
        self.timestamp = timestamp
        self.requestedPriority = requestedPriority
        self.importance = importance
        self.collapseKey = collapseKey
        self.expiration = expiration
    }
}
