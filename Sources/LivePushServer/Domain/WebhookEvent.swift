import Foundation

/// What the webhook receives (POST, JSON, ISO 8601 dates).
package struct WebhookEvent: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case event
        case activityID = "activityId"
        case pushToStartTokenID = "pushToStartTokenId"
        case userID = "userId"
        case reason, token, at, renewedBy, key
    }

    /// The kinds of event.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// APNs refused a token for good; the app must report a new one.
        case tokenInvalid = "token.invalid"
        /// An activity left `active` (ended by the backend, the app, or at its maximum duration).
        case activityEnded = "activity.ended"
        /// A renewal started a new activity for the user and linked it (`renewedBy`); the old one is ended.
        case activityRenewed = "activity.renewed"
        /// A renewal could not start a new activity (`reason`); the old one keeps its updates until its limit.
        case renewalFailed = "activity.renewalFailed"
        /// A Live Activity kept as a resource (`key`) could not be started (`reason`: `noPushToStartToken`,
        /// `pushToStartBudget`, `contentStateShape`, `startRefused`).
        case liveActivityNotStarted = "liveActivity.notStarted"
    }

    /// Why an activity ended.
    package enum EndCause: String, Sendable, Hashable, Codable {
        case backend, app, maximumDuration
        /// A new activity took over (renewal).
        case renewed
    }

    package var event: Kind
    package var activityID: String?
    /// For push-to-start tokens: the stored token's id.
    package var pushToStartTokenID: String?
    package var userID: String?
    /// The APNs reason (`token.invalid`) or why the activity ended (`backend`, `app`, `maximumDuration`).
    package var reason: String
    /// The token, shortened (first and last 4 hex digits).
    package var token: String?
    package var at: Date
    /// For `activity.renewed`: the activity that took over.
    package var renewedBy: String?
    /// For `liveActivity.notStarted`: the backend's key of the resource.
    package var key: String?

    package init(
        event: Kind, activityID: String? = nil, pushToStartTokenID: String? = nil, userID: String? = nil,
        reason: String, token: String? = nil, at: Date, renewedBy: String? = nil, key: String? = nil
    ) {
        self.renewedBy = renewedBy
        self.key = key
        self.event = event
        self.activityID = activityID
        self.pushToStartTokenID = pushToStartTokenID
        self.userID = userID
        self.reason = reason
        self.token = token
        self.at = at
    }

    /// `activity.ended` for `activityId`.
    package static func activityEnded(_ activityID: String, userID: String?, cause: EndCause, at: Date) -> WebhookEvent {
        WebhookEvent(event: .activityEnded, activityID: activityID, userID: userID, reason: cause.rawValue, at: at)
    }
}
