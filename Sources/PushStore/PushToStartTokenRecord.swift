import APNsCore
import Foundation

/// What the app sends to store (or replace) the push-to-start token of one device for one
/// ActivityAttributes type.
public struct PushToStartRegistration: Sendable, Hashable, Codable {
    public var userId: String
    /// The app's own id for the device (not a push token), 1 to 128 characters.
    public var deviceId: String
    public var bundleId: String
    public var attributesType: String
    public var environment: APNsEnvironment
    public var token: DeviceToken
    public var at: Date

    public init(
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
public struct PushToStartTokenRecord: Sendable, Hashable, Codable {
    /// Stable id, used as the outbox target of start pushes, so a start sent after a token
    /// replacement goes to the newest token.
    public var id: UUID
    public var userId: String
    public var deviceId: String
    public var bundleId: String
    public var attributesType: String
    public var environment: APNsEnvironment
    public var token: DeviceToken
    public var tokenState: TokenState
    public var updatedAt: Date

    public init(
        id: UUID, userId: String, deviceId: String, bundleId: String, attributesType: String,
        environment: APNsEnvironment, token: DeviceToken, tokenState: TokenState, updatedAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.deviceId = deviceId
        self.bundleId = bundleId
        self.attributesType = attributesType
        self.environment = environment
        self.token = token
        self.tokenState = tokenState
        self.updatedAt = updatedAt
    }
}
