import APNsCore
import Foundation

/// A claimed outbox push with what sending it needs of its target, read by the claim itself
/// (``OutboxStore/claimToSend(owner:limit:now:lease:)``): no second read per batch before the send.
package struct ClaimedPush: Sendable, Hashable {
    package var item: OutboxItem
    /// For a push to an activity: the activity as the claim found it; nil for other targets and for an
    /// activity that is no longer registered.
    package var activity: ClaimedActivity?

    package init(item: OutboxItem, activity: ClaimedActivity? = nil) {
        self.item = item
        self.activity = activity
    }
}

/// What a push to an activity needs of it at send time: its current token (a rotated one is used), its
/// bundle id, and whether it may still get pushes.
package struct ClaimedActivity: Sendable, Hashable {
    package var pushToken: DeviceToken
    package var bundleID: String
    package var state: ActivityState
    /// APNs' reason when its token was marked invalid; nil while the token is valid.
    package var invalidTokenReason: String?

    package init(pushToken: DeviceToken, bundleID: String, state: ActivityState, invalidTokenReason: String? = nil) {
        self.pushToken = pushToken
        self.bundleID = bundleID
        self.state = state
        self.invalidTokenReason = invalidTokenReason
    }
}
