import APNsCore
import Foundation

/// What the app sends to store (or replace) the push-to-start token of one device for one
/// ActivityAttributes type.
package struct PushToStartRegistration: Sendable, Hashable, Codable {
    package var userId: String
    /// The app's own id for the device (not a push token), 1 to 128 characters.
    package var deviceId: String
    package var bundleId: String
    package var attributesType: String
    package var environment: APNsEnvironment
    package var token: DeviceToken
    package var at: Date

    package init(
        userId: String, deviceId: String, bundleId: String, attributesType: String,
        environment: APNsEnvironment, token: DeviceToken, at: Date
    ) {
        self.userId = userId
        self.deviceId = deviceId
        self.bundleId = bundleId
        self.attributesType = attributesType
        self.environment = environment
        self.token = token
        self.at = at
    }
}

/// A stored push-to-start token. There is one per (user, device, bundle id, attributes type); storing
/// a new token for the same four replaces the token and keeps `id`.
package struct PushToStartTokenRecord: Sendable, Hashable, Codable {
    /// Stable id, used as the outbox target of start pushes, so a start sent after a token
    /// replacement goes to the newest token.
    package var id: UUID
    package var userId: String
    package var deviceId: String
    package var bundleId: String
    package var attributesType: String
    package var environment: APNsEnvironment
    package var token: DeviceToken
    package var tokenState: TokenState
    package var updatedAt: Date
}
