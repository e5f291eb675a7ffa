import APNsCore
import Foundation

/// The settings `ActivityService` (and the app routes that register through it) reads.
struct ActivitySettings: Sendable {
    /// The APNs environment the server sends to, when known: registrations for the other one are refused.
    var environment: APNsEnvironment?
    /// How long an ended activity stays on the Lock Screen when the app gave no dismissal date.
    var defaultDismissalDelay: TimeInterval
    /// How many delivery records an activity's view returns.
    var historyLimit: Int
    /// How long an activity may stay active (a renewal's `renewBefore` must come before it).
    var maximumActiveDuration: TimeInterval
}
