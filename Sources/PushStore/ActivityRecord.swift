import APNsCore
import Foundation
import LiveActivity

/// Where a Live Activity is in its life, as far as the server knows.
public enum ActivityState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Running; updates are sent to it.
    case active
    /// Ended (by an end push or by the app); it may still be on the Lock Screen until its dismissal date.
    case ended
    /// Removed from the Lock Screen.
    case dismissed
}

/// Whether a push token may still be used.
public enum TokenState: Sendable, Hashable, Codable {
    case valid
    /// APNs (or the app) said the token is no longer good; it is not used again until the app
    /// registers a token again.
    case invalid(reason: String, at: Date)

    /// True for `.valid`.
    public var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}

/// What the app sends when it registers a Live Activity (or registers it again).
public struct ActivityRegistration: Sendable, Hashable, Codable {
    /// Client-chosen id, 1 to 128 characters.
    public var activityId: String
    public var pushToken: DeviceToken
    public var bundleId: String
    /// The ActivityAttributes type name, as used in push-to-start payloads.
    public var attributesType: String
    public var environment: APNsEnvironment
    public var userId: String?
    public var groups: [String]
    public var frequentPushesEnabled: Bool
    /// When the registration arrived.
    public var at: Date

    public init(
        activityId: String, pushToken: DeviceToken, bundleId: String, attributesType: String,
        environment: APNsEnvironment, userId: String? = nil, groups: [String] = [],
        frequentPushesEnabled: Bool = false, at: Date
    ) {
        self.activityId = activityId
        self.pushToken = pushToken
        self.bundleId = bundleId
        self.attributesType = attributesType
        self.environment = environment
        self.userId = userId
        self.groups = groups
        self.frequentPushesEnabled = frequentPushesEnabled
        self.at = at
    }
}

/// A stored Live Activity: its current push token, its state and its last content.
public struct ActivityRecord: Sendable, Hashable, Codable {
    public var activityId: String
    /// The current update token. Tokens it replaced are kept as ``RetiredTokenRecord``s.
    public var pushToken: DeviceToken
    public var bundleId: String
    public var attributesType: String
    public var environment: APNsEnvironment
    public var userId: String?
    /// Sorted, without duplicates.
    public var groups: [String]
    public var frequentPushesEnabled: Bool
    public var state: ActivityState
    public var tokenState: TokenState
    /// First registration.
    public var registeredAt: Date
    /// Last change of any field.
    public var updatedAt: Date
    /// When the activity started (its first registration); the 8-hour limit counts from here.
    public var startedAt: Date
    public var endedAt: Date?
    public var dismissalDate: Date?
    /// The newest content-state accepted for it, with that push's timestamp.
    public var lastContentState: JSONValue?
    public var lastTimestamp: Date?

    public init(
        activityId: String, pushToken: DeviceToken, bundleId: String, attributesType: String,
        environment: APNsEnvironment, userId: String?, groups: [String], frequentPushesEnabled: Bool,
        state: ActivityState, tokenState: TokenState, registeredAt: Date, updatedAt: Date, startedAt: Date,
        endedAt: Date?, dismissalDate: Date?, lastContentState: JSONValue?, lastTimestamp: Date?
    ) {
        self.activityId = activityId
        self.pushToken = pushToken
        self.bundleId = bundleId
        self.attributesType = attributesType
        self.environment = environment
        self.userId = userId
        self.groups = groups
        self.frequentPushesEnabled = frequentPushesEnabled
        self.state = state
        self.tokenState = tokenState
        self.registeredAt = registeredAt
        self.updatedAt = updatedAt
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.dismissalDate = dismissalDate
        self.lastContentState = lastContentState
        self.lastTimestamp = lastTimestamp
    }
}

/// A token an activity used before a rotation or re-registration. It is never used again; a late APNs
/// answer for it is recognized through this record.
public struct RetiredTokenRecord: Sendable, Hashable, Codable {
    public var token: DeviceToken
    public var activityId: String
    public var retiredAt: Date

    public init(token: DeviceToken, activityId: String, retiredAt: Date) {
        self.token = token
        self.activityId = activityId
        self.retiredAt = retiredAt
    }
}

/// An activity after a change of its state, and whether this change took it out of `active` (so that
/// exactly one of concurrent calls reports the end, e.g. to the webhook).
public struct ActivityStateChange: Sendable, Equatable {
    public var activity: ActivityRecord
    public var endedNow: Bool

    public init(activity: ActivityRecord, endedNow: Bool) {
        self.activity = activity
        self.endedNow = endedNow
    }
}
