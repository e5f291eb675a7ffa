import APNsCore
import Foundation
import LiveActivity

/// An app as registered with the simulator: what its devices can decode and display.
struct SimulatedApp: Sendable {
    let bundleID: String
    let environment: APNsEnvironment
    var localizations: [String: String]
    /// The app's `ActivityAttributes` type names, each with its content-state schema when given.
    /// nil: the app accepts any type.
    var attributesTypes: [String: ContentStateSchema?]?

    func snapshot() -> AppSnapshot {
        AppSnapshot(
            bundleID: bundleID, environment: environment, localizations: localizations,
            attributesTypes: attributesTypes?.keys.sorted(),
            contentStateSchemas: attributesTypes?.compactMapValues { $0 }
        )
    }
}

/// An app installed on a device, with its push-to-start token.
struct InstalledApp: Sendable {
    let bundleID: String
    var pushToStartToken: String
    var history: [PushRecord] = []
    /// The starts applied, for `DeviceRules.pushToStartBudget`.
    var startBudget = SlidingWindowCounter()
}

/// A simulated iPhone.
struct SimulatedDevice: Sendable {
    let id: String
    let name: String
    let environment: APNsEnvironment
    var frequentPushesEnabled: Bool
    var webhookURL: WebhookURL?
    let createdAt: Date
    var apps: [InstalledApp]
    var activityIDs: [String] = []
    var webhookDeliveries: [WebhookDelivery] = []

    func appIndex(_ bundleID: String) -> Int? { apps.firstIndex { $0.bundleID == bundleID } }
}

/// Who a token belongs to, and whether it still works.
struct TokenRecord: Sendable {
    enum Owner: Sendable, Hashable {
        case pushToStart(deviceID: String, bundleID: String)
        case activity(id: String)
    }

    let owner: Owner
    let environment: APNsEnvironment
    let bundleID: String
    /// When the token stopped (or stops) working: after rotation. nil while current.
    var invalidSince: Date?
    /// When the token expired (410 `ExpiredToken`), set through the control API. nil: not expired.
    var expiredSince: Date?
}

/// An app as the control API shows it.
public struct AppSnapshot: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case bundleID = "bundleId"
        case environment, localizations, attributesTypes, contentStateSchemas
    }

    public var bundleID: String
    public var environment: APNsEnvironment
    public var localizations: [String: String]
    /// Declared `ActivityAttributes` type names (nil: any type is accepted).
    public var attributesTypes: [String]?
    /// Content-state schemas declared per attributes type.
    public var contentStateSchemas: [String: ContentStateSchema]?
}

/// A device's app and its push-to-start token, as the control API shows it.
public struct InstalledAppSnapshot: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case bundleID = "bundleId"
        case pushToStartToken, history
    }

    public var bundleID: String
    public var pushToStartToken: String
    /// Pushes sent to the push-to-start token.
    public var history: [PushRecord]
}

/// A device as the control API shows it; activities ordered by relevance (highest first).
public struct DeviceSnapshot: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case deviceID = "deviceId"
        case name, environment, frequentPushesEnabled, webhookURL, createdAt, apps, activities, webhookDeliveries
    }

    public var deviceID: String
    public var name: String
    public var environment: APNsEnvironment
    public var frequentPushesEnabled: Bool
    public var webhookURL: String?
    public var createdAt: Date
    public var apps: [InstalledAppSnapshot]
    public var activities: [ActivitySnapshot]
    public var webhookDeliveries: [WebhookDelivery]
}

/// One POST of a new token to a device's webhook.
public struct WebhookDelivery: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case kind, token
        case activityID = "activityId"
        case at, status, error
    }

    public var kind: String
    public var token: String
    public var activityID: String?
    public var at: Date
    /// The HTTP status the webhook answered, when it answered.
    public var status: Int?
    public var error: String?
}
