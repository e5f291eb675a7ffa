import APNsCore
import Foundation

/// What the app sends to store (or replace) the push-to-start token of one device for one
/// ActivityAttributes type.
package struct PushToStartRegistration: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case userID = "userId"
        case deviceID = "deviceId"
        case bundleID = "bundleId"
        case attributesType, environment, token, at
    }

    package var userID: String
    /// The app's own id for the device (not a push token), 1 to 128 characters.
    package var deviceID: String
    package var bundleID: String
    package var attributesType: String
    package var environment: APNsEnvironment
    package var token: DeviceToken
    package var at: Date

    package init(
        userID: String, deviceID: String, bundleID: String, attributesType: String,
        environment: APNsEnvironment, token: DeviceToken, at: Date
    ) {
        self.userID = userID
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.environment = environment
        self.token = token
        self.at = at
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
        case attributesType, environment, token, tokenState, updatedAt
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
}
