import APNsCore
import Foundation

/// Where the app read a push-to-start token: ActivityKit's `pushToStartTokenUpdates` stream, or its
/// `pushToStartToken` property (read on every foreground, since the stream does not yield on some launches).
package enum PushToStartTokenSource: String, Sendable, Hashable, Codable, CaseIterable {
    case stream
    case property
}

/// What the app sends to store (or replace) the push-to-start token of one device for one
/// ActivityAttributes type.
package struct PushToStartRegistration: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case userID = "userId"
        case deviceID = "deviceId"
        case bundleID = "bundleId"
        case attributesType, environment, token, at, source
    }

    package var userID: String
    /// The app's own id for the device (not a push token), 1 to 128 characters.
    package var deviceID: String
    package var bundleID: String
    package var attributesType: String
    package var environment: APNsEnvironment
    package var token: DeviceToken
    package var at: Date
    /// Where the app read the token; nil when it did not say (an app from before schema 9).
    package var source: PushToStartTokenSource?

    package init(
        userID: String, deviceID: String, bundleID: String, attributesType: String,
        environment: APNsEnvironment, token: DeviceToken, at: Date, source: PushToStartTokenSource? = nil
    ) {
        self.userID = userID
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.environment = environment
        self.token = token
        self.at = at
        self.source = source
    }
}

/// A stored push-to-start token. There is one per (user, device, bundle id, attributes type); storing
/// a new token for the same four replaces the token and keeps `id`.
package struct PushToStartTokenRecord: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case id
        case userID = "userId"
        case deviceID = "deviceId"
        case bundleID = "bundleId"
        case attributesType, environment, token, tokenState, updatedAt, source, refreshedAt
    }

    /// Stable id, used as the outbox target of start pushes, so a start sent after a token
    /// replacement goes to the newest token.
    package var id: UUID
    package var userID: String
    package var deviceID: String
    package var bundleID: String
    package var attributesType: String
    package var environment: APNsEnvironment
    package var token: DeviceToken
    package var tokenState: TokenState
    package var updatedAt: Date
    /// Where the app read the token when it last reported it; nil when it did not say.
    package var source: PushToStartTokenSource? = nil
    /// When the app last reported the token (stored it again, from either source); nil for a token
    /// stored before schema 9 and not reported since.
    package var refreshedAt: Date? = nil
}
