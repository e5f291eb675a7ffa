import APNsCore
import Foundation

/// An error answer: the HTTP status and the `reason` string of the JSON body.
struct Rejection: Sendable, Hashable, Error {
    var status: Int
    var reason: String
    /// For 410: when the token stopped being valid (`timestamp` of the body).
    var timestamp: Date?

    init(_ reason: APNsReason, timestamp: Date? = nil) {
        self.status = reason.status
        self.reason = reason.rawValue
        self.timestamp = timestamp
    }

    init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
        self.timestamp = nil
    }
}
