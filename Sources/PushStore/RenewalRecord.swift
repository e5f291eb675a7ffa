import Foundation
import LiveActivity

/// Where an activity's renewal is (a new activity started by push-to-start before the 8-hour limit).
package enum RenewalState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Opted in; the start is sent once the activity is `renewBefore` old.
    case waiting
    /// The push-to-start was sent; the new activity has not been registered yet.
    case starting
    /// The new activity was registered and linked (`renewedBy`); the old one was ended.
    case renewed
    /// No new activity: the old one keeps its updates until its limit (`reason` says why).
    case failed
}

/// What an activity's renewal needs: when to start the new one and what to start it with.
package struct RenewalPlan: Sendable, Hashable {
    package var activityID: String
    package var userID: String
    package var attributesType: String
    /// Seconds after the activity's start when the new one is started.
    package var renewBefore: TimeInterval
    /// The static attributes the new activity is started with (the old one's).
    package var attributes: JSONValue
    /// The alert of the push-to-start (the device drops a start without one).
    package var alert: JSONValue
    /// The activity this one renews (the previous link of the chain), if any.
    package var renews: String?

    package init(
        activityID: String, userID: String, attributesType: String, renewBefore: TimeInterval, attributes: JSONValue, alert: JSONValue,
        renews: String? = nil
    ) {
        self.activityID = activityID
        self.userID = userID
        self.attributesType = attributesType
        self.renewBefore = renewBefore
        self.attributes = attributes
        self.alert = alert
        self.renews = renews
    }
}

/// A stored renewal: its plan, when it is due, and how far it got.
package struct RenewalRecord: Sendable, Hashable {
    package var plan: RenewalPlan
    /// The activity's start plus `renewBefore`.
    package var renewAt: Date
    package var state: RenewalState
    /// Why it failed (`noPushToStartToken`, `pushToStartBudget`, an APNs reason such as `ExpiredToken`,
    /// `notRegistered`).
    package var reason: String?
    /// The push-to-start tokens the start went to (their ids), and when it was sent.
    package var startTokenIDs: [UUID]
    package var startedAt: Date?
    /// The activity that took over, once linked.
    package var renewedBy: String?
    package var finishedAt: Date?

    package var activityID: String { plan.activityID }
}
