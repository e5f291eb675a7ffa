import Foundation
import LiveActivity

/// `POST /v1/apps`: an app the simulated devices can install.
public struct AppRegistration: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case bundleID = "bundleId"
        case environment, localizations, attributesTypes
    }

    public var bundleID: String
    /// `sandbox` (also `development`) or `production`.
    public var environment: String
    /// The app's `Localizable.strings`: loc-key → format with `%@` / `%1$@` placeholders.
    public var localizations: [String: String]?
    /// The app's `ActivityAttributes` type names, or names mapped to their content-state schema.
    public var attributesTypes: DeclaredAttributesTypes?

    public init(
        bundleID: String, environment: String, localizations: [String: String]? = nil,
        attributesTypes: DeclaredAttributesTypes? = nil
    ) {
        self.bundleID = bundleID
        self.environment = environment
        self.localizations = localizations
        self.attributesTypes = attributesTypes
    }
}

/// Attributes types an app declares: `["TypeA","TypeB"]` or `{"TypeA":{"field":"number"},"TypeB":null}`.
public struct DeclaredAttributesTypes: Sendable, Hashable, Codable {
    public var schemas: [String: ContentStateSchema?]

    public init(_ schemas: [String: ContentStateSchema?]) { self.schemas = schemas }

    public init(names: [String]) {
        schemas = Dictionary(names.map { ($0, nil) }, uniquingKeysWith: { first, _ in first })
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let names = try? container.decode([String].self) {
            self.init(names: names)
        } else {
            self.init(try container.decode([String: ContentStateSchema?].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(schemas)
    }
}

/// `POST /v1/devices`: a device with one app installed.
public struct DeviceRegistration: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case name
        case bundleID = "bundleId"
        case environment, frequentPushesEnabled, webhookURL
    }

    public var name: String
    public var bundleID: String
    public var environment: String
    public var frequentPushesEnabled: Bool?
    /// `http://…` URL the device posts its new tokens to.
    public var webhookURL: String?

    public init(
        name: String, bundleID: String, environment: String, frequentPushesEnabled: Bool? = nil,
        webhookURL: String? = nil
    ) {
        self.name = name
        self.bundleID = bundleID
        self.environment = environment
        self.frequentPushesEnabled = frequentPushesEnabled
        self.webhookURL = webhookURL
    }
}

/// `POST /v1/devices/{id}/activities`: an activity the app starts itself (`Activity.request`, push type token).
public struct ActivityRequest: Sendable, Hashable, Codable {
    public var attributesType: String
    public var attributes: JSONValue
    public var contentState: JSONValue
    /// The content-state schema; default: the app's declared one for this type, else inferred from
    /// `contentState`.
    public var contentStateSchema: ContentStateSchema?
    public var relevanceScore: Double?
    public var staleDate: Date?
    /// Which installed app starts it (default: the device's first app).
    public var bundleID: String?
    /// Start it subscribed to this broadcast channel (`pushType: .channel(id)`, iOS 18): it gets the
    /// channel's broadcasts and no update token.
    public var channelID: String?

    public init(
        attributesType: String, attributes: JSONValue, contentState: JSONValue,
        contentStateSchema: ContentStateSchema? = nil, relevanceScore: Double? = nil, staleDate: Date? = nil,
        bundleID: String? = nil, channelID: String? = nil
    ) {
        self.channelID = channelID
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.contentStateSchema = contentStateSchema
        self.relevanceScore = relevanceScore
        self.staleDate = staleDate
        self.bundleID = bundleID
    }

    private enum CodingKeys: String, CodingKey {
        case attributesType, attributes, contentState, contentStateSchema, relevanceScore, staleDate
        case bundleID = "bundleId"
        case channelID = "channelId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        attributesType = try container.decode(String.self, forKey: .attributesType)
        attributes = try container.decode(JSONValue.self, forKey: .attributes)
        contentState = try container.decode(JSONValue.self, forKey: .contentState)
        contentStateSchema = try container.decodeIfPresent(ContentStateSchema.self, forKey: .contentStateSchema)
        relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore)
        bundleID = try container.decodeIfPresent(String.self, forKey: .bundleID)
        channelID = try container.decodeIfPresent(String.self, forKey: .channelID)
        // Decoded by hand so that a bad date names its field on every platform.
        if let text = try container.decodeIfPresent(String.self, forKey: .staleDate) {
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .staleDate, in: container,
                    debugDescription: "'\(text)' is not an ISO 8601 date; expected e.g. 2026-01-01T12:00:00Z")
            }
            staleDate = date
        } else {
            staleDate = nil
        }
    }
}

/// The answer to `POST /v1/devices`.
public struct DeviceCreated: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case deviceID = "deviceId"
        case pushToStartToken
    }

    public var deviceID: String
    public var pushToStartToken: String
}

/// The answer to `POST /v1/devices/{id}/activities` with a `channelId`: the activity has no update token.
public struct ChannelActivityCreated: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case activityID = "activityId"
        case channelID = "channelId"
    }

    public var activityID: String
    public var channelID: String
}

/// `POST /v1/devices/{id}/activities/bulk`: `count` activities alike, each subscribed to `activity.channelId`
/// (for load tests of broadcasts).
public struct BulkActivityRequest: Sendable, Hashable, Codable {
    public var count: Int
    public var activity: ActivityRequest
}

/// The answer to `POST /v1/devices/{id}/activities/bulk`.
public struct BulkActivitiesCreated: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case created
        case channelID = "channelId"
        case subscriberCount
    }

    public var created: Int
    public var channelID: String
    public var subscriberCount: Int
}

/// The answer to `POST /v1/devices/{id}/activities`.
public struct ActivityCreated: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case activityID = "activityId"
        case pushToken
    }

    public var activityID: String
    public var pushToken: String
}

/// One request the APNs endpoint answered, as the push log keeps it.
public struct PushLogEntry: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case method, path, token, headers, payload, status
        case apnsID = "apnsId"
        case apnsUniqueID = "apnsUniqueId"
        case reason, receivedAt, latencySeconds, outcome
    }

    public var method: String
    public var path: String
    public var token: String?
    public var headers: [HeaderField]
    public var payload: JSONValue
    public var status: Int
    public var apnsID: String
    public var apnsUniqueID: String?
    public var reason: String?
    public var receivedAt: Date
    public var latencySeconds: Double
    /// What the device did with it (nil when APNs rejected it before any device, or no device owns the token).
    public var outcome: DeviceOutcome?
}
