import APNsCore
import Foundation
import LiveActivity

/// Where a Live Activity is in its life, as far as the server knows.
package enum ActivityState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Running; updates are sent to it.
    case active
    /// Ended (by an end push or by the app); it may still be on the Lock Screen until its dismissal date.
    case ended
    /// Removed from the Lock Screen.
    case dismissed
}

/// Whether a push token may still be used.
package enum TokenState: Sendable, Hashable, Codable {
    case valid
    /// APNs (or the app) said the token is no longer good; it is not used again until the app
    /// registers a token again.
    case invalid(reason: String, at: Date)

    /// Why the token is invalid; nil for `.valid`.
    package var invalidReason: String? {
        if case .invalid(let reason, _) = self { return reason }
        return nil
    }

    /// True for `.valid`.
    package var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}

/// What the app sends when it registers a Live Activity (or registers it again).
package struct ActivityRegistration: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case activityID = "activityId"
        case pushToken
        case bundleID = "bundleId"
        case attributesType, environment
        case userID = "userId"
        case groups, frequentPushesEnabled, at
    }

    /// Client-chosen id, 1 to 128 characters.
    package var activityID: String
    package var pushToken: DeviceToken
    package var bundleID: String
    /// The ActivityAttributes type name, as used in push-to-start payloads.
    package var attributesType: String
    package var environment: APNsEnvironment
    package var userID: String?
    package var groups: [String]
    package var frequentPushesEnabled: Bool
    /// When the registration arrived.
    package var at: Date

    package init(
        activityID: String, pushToken: DeviceToken, bundleID: String, attributesType: String,
        environment: APNsEnvironment, userID: String? = nil, groups: [String] = [],
        frequentPushesEnabled: Bool = false, at: Date
    ) {
        self.activityID = activityID
        self.pushToken = pushToken
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.environment = environment
        self.userID = userID
        self.groups = groups
        self.frequentPushesEnabled = frequentPushesEnabled
        self.at = at
    }
}

/// A stored Live Activity: its current push token, its state and its last content.
package struct ActivityRecord: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case activityID = "activityId"
        case pushToken
        case bundleID = "bundleId"
        case attributesType, environment
        case userID = "userId"
        case groups, frequentPushesEnabled, state, tokenState, registeredAt, updatedAt, startedAt, endedAt, dismissalDate, lastContentState,
            lastTimestamp, lastAcceptedAt
    }

    package var activityID: String
    /// The current update token. Tokens it replaced are retired: never accepted again, and a late APNs
    /// answer for one changes nothing.
    package var pushToken: DeviceToken
    package var bundleID: String
    package var attributesType: String
    package var environment: APNsEnvironment
    package var userID: String?
    /// Sorted, without duplicates.
    package var groups: [String]
    package var frequentPushesEnabled: Bool
    package var state: ActivityState
    package var tokenState: TokenState
    /// First registration.
    package var registeredAt: Date
    /// Last change of any field.
    package var updatedAt: Date
    /// When the activity started (its first registration); the 8-hour limit counts from here.
    package var startedAt: Date
    package var endedAt: Date?
    package var dismissalDate: Date?
    /// The newest content-state accepted for it, with that push's timestamp.
    package var lastContentState: JSONValue?
    package var lastTimestamp: Date?
    /// When the newest push whose content it took was accepted (to the fraction of a second): a group
    /// send accepted before that is older than what the activity shows.
    package var lastAcceptedAt: Date? = nil
}

/// An activity after a change of its state, and whether this change took it out of `active` (so that
/// exactly one of concurrent calls reports the end, e.g. to the webhook).
package struct ActivityStateChange: Sendable, Equatable {
    package var activity: ActivityRecord
    package var endedNow: Bool
}

/// An activity about to be updated or ended, with the shape its app's ContentState has
/// (``ActivityStore/activityToSend(id:)``, ``ActivityStore/activitiesToSend(ids:)``).
package struct ActivityToSend: Sendable, Equatable {
    package var activity: ActivityRecord
    package var shape: StoredContentStateShape?
    /// The activity a renewal linked to take over from this one, if any (read for a batch only).
    package var renewedBy: String? = nil
}
