import Foundation
import LiveActivity

// The request bodies of the API, as clients encode them. The server reads bodies field by field with
// `JSONBody` (so that every refusal names the field and the rule), accepting exactly the fields listed
// here: each type's `fields` is the set its route passes to `allowOnly`, and the contract test checks it
// against /openapi.json.

/// `POST /v1/activities`: an activity's update token, reported by the app.
package struct ActivityRegistrationBody: Codable, Sendable, Hashable {
    package var activityID: String
    package var pushToken: String
    package var bundleID: String
    package var attributesType: String
    /// `sandbox` or `production`.
    package var environment: String
    package var userID: String?
    package var groups: [String]?
    package var frequentPushesEnabled: Bool?

    package init(
        activityID: String, pushToken: String, bundleID: String, attributesType: String, environment: String,
        userID: String? = nil, groups: [String]? = nil, frequentPushesEnabled: Bool? = nil
    ) {
        self.activityID = activityID
        self.pushToken = pushToken
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.environment = environment
        self.userID = userID
        self.groups = groups
        self.frequentPushesEnabled = frequentPushesEnabled
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case activityID = "activityId"
        case pushToken
        case bundleID = "bundleId"
        case attributesType, environment
        case userID = "userId"
        case groups, frequentPushesEnabled
    }

    package static let fields = Set(CodingKeys.allCases.map(\.rawValue))
}

/// `PUT /v1/activities/{activityId}/push-token`.
package struct PushTokenRotationBody: Codable, Sendable, Hashable {
    package var pushToken: String

    package init(pushToken: String) { self.pushToken = pushToken }

    package enum CodingKeys: String, CodingKey, CaseIterable { case pushToken }

    package static let fields = Set(CodingKeys.allCases.map(\.rawValue))
}

/// `PUT /v1/push-to-start-tokens`.
package struct PushToStartTokenBody: Codable, Sendable, Hashable {
    /// Optional with an app token (it names the user; a different one is refused with 403); required with
    /// a development app key.
    package var userID: String?
    package var deviceID: String
    package var bundleID: String
    package var attributesType: String
    package var environment: String
    package var token: String

    package init(userID: String?, deviceID: String, bundleID: String, attributesType: String, environment: String, token: String) {
        self.userID = userID
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.environment = environment
        self.token = token
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case userID = "userId"
        case deviceID = "deviceId"
        case bundleID = "bundleId"
        case attributesType, environment, token
    }

    package static let fields = Set(CodingKeys.allCases.map(\.rawValue))
}

/// `POST /v1/activities/{activityId}/ended` (the body is optional).
package struct EndedBody: Codable, Sendable, Hashable {
    package var dismissalDate: APIDate?

    package init(dismissalDate: APIDate? = nil) { self.dismissalDate = dismissalDate }

    package enum CodingKeys: String, CodingKey, CaseIterable { case dismissalDate }

    package static let fields = Set(CodingKeys.allCases.map(\.rawValue))
}

/// `POST /v1/users/{userId}/app-tokens` (the body is optional): how long the token lives.
package struct AppTokenRequestBody: Codable, Sendable, Hashable {
    /// 60 to 604800 seconds; the server's `appTokenLifetime` when left out.
    package var ttlSeconds: Int?

    package init(ttlSeconds: Int? = nil) { self.ttlSeconds = ttlSeconds }

    package enum CodingKeys: String, CodingKey, CaseIterable { case ttlSeconds }

    package static let fields = Set(CodingKeys.allCases.map(\.rawValue))
}

/// `POST /v1/installations`: no body, or `{}`.
package struct InstallationBody: Codable, Sendable, Hashable {
    package init() {}

    package static let fields: Set<String> = []
}

/// `POST /v1/installations/{installationId}/token` and `POST /v1/users/{userId}/sign-out`: no body, or `{}`.
package struct EmptyBody: Codable, Sendable, Hashable {
    package init() {}

    package static let fields: Set<String> = []
}

/// `POST /v1/activities/{activityId}/dismissed`: no body, or `{}`.
package struct DismissedBody: Codable, Sendable, Hashable {
    package init() {}

    package static let fields: Set<String> = []
}

/// The body of `update`, `end` (activity or group) and `start` (a user): the push's content. `dismissalDate`
/// is read only by an end; `attributesType`, `attributes` and `inputPushToken` only by a start.
package struct SendBody: Codable, Sendable, Hashable {
    /// `routine` (priority 5) or `timeSensitive` (priority 10).
    package enum Importance: String, Codable, Sendable, Hashable {
        case routine, timeSensitive
    }

    /// An alert's title or body: a plain string, or `{"locKey": …, "locArgs": […]}` for a localized text.
    package enum AlertText: Codable, Sendable, Hashable {
        case plain(String)
        case localized(locKey: String, locArgs: [String])

        package enum LocalizedKeys: String, CodingKey, CaseIterable { case locKey, locArgs }

        /// The fields of the localized form.
        package static let localizedFields = Set(LocalizedKeys.allCases.map(\.rawValue))

        package init(_ text: LiveActivity.AlertText) {
            switch text {
            case .plain(let text): self = .plain(text)
            case .localized(let key, let arguments): self = .localized(locKey: key, locArgs: arguments)
            }
        }

        package init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self = .plain(text)
                return
            }
            let container = try decoder.container(keyedBy: LocalizedKeys.self)
            self = .localized(
                locKey: try container.decode(String.self, forKey: .locKey),
                locArgs: try container.decodeIfPresent([String].self, forKey: .locArgs) ?? []
            )
        }

        package func encode(to encoder: any Encoder) throws {
            switch self {
            case .plain(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .localized(let key, let arguments):
                var container = encoder.container(keyedBy: LocalizedKeys.self)
                try container.encode(key, forKey: .locKey)
                try container.encode(arguments, forKey: .locArgs)
            }
        }
    }

    /// The alert shown with the push: at least one of title, body and sound.
    package struct Alert: Codable, Sendable, Hashable {
        package var title: AlertText?
        package var body: AlertText?
        package var sound: String?

        package init(title: AlertText? = nil, body: AlertText? = nil, sound: String? = nil) {
            self.title = title
            self.body = body
            self.sound = sound
        }

        package init(_ alert: LiveActivityAlert) {
            self.init(title: alert.title.map(AlertText.init), body: alert.body.map(AlertText.init), sound: alert.sound?.name)
        }

        package enum CodingKeys: String, CodingKey, CaseIterable { case title, body, sound }

        package static let fields = Set(CodingKeys.allCases.map(\.rawValue))
    }

    package var contentState: JSONValue?
    /// 5 or 10.
    package var priority: Int?
    package var importance: Importance?
    package var alert: Alert?
    package var sound: String?
    package var staleDate: APIDate?
    package var relevanceScore: Double?
    package var expiration: APIDate?
    package var collapseID: String?
    /// End only.
    package var dismissalDate: APIDate?
    /// Start only.
    package var attributesType: String?
    /// Start only.
    package var attributes: JSONValue?
    /// Start only.
    package var inputPushToken: Bool?
    /// Start only (iOS 18+): a channel id of ours; the started activity subscribes to that channel.
    package var inputPushChannel: String?

    package init(
        contentState: JSONValue? = nil, priority: Int? = nil, importance: Importance? = nil, alert: Alert? = nil,
        sound: String? = nil, staleDate: APIDate? = nil, relevanceScore: Double? = nil, expiration: APIDate? = nil,
        collapseID: String? = nil, dismissalDate: APIDate? = nil, attributesType: String? = nil,
        attributes: JSONValue? = nil, inputPushToken: Bool? = nil, inputPushChannel: String? = nil
    ) {
        self.contentState = contentState
        self.priority = priority
        self.importance = importance
        self.alert = alert
        self.sound = sound
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
        self.expiration = expiration
        self.collapseID = collapseID
        self.dismissalDate = dismissalDate
        self.attributesType = attributesType
        self.attributes = attributes
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case contentState, priority, importance, alert, sound, staleDate, relevanceScore, expiration
        case collapseID = "collapseId"
        case dismissalDate
        case attributesType, attributes, inputPushToken, inputPushChannel
    }

    /// The fields every kind reads.
    package static let commonFields: Set<String> = [
        "contentState", "priority", "importance", "alert", "sound", "staleDate", "relevanceScore", "expiration", "collapseId",
    ]

    /// The fields a request of `kind` accepts.
    package static func fields(for kind: LiveActivityEvent) -> Set<String> {
        switch kind {
        case .update: return commonFields
        case .end: return commonFields.union(["dismissalDate"])
        case .start: return commonFields.union(["attributesType", "attributes", "inputPushToken", "inputPushChannel"])
        }
    }
}

/// `POST /v1/channels`: a broadcast channel for one app.
package struct ChannelCreationBody: Codable, Sendable, Hashable {
    /// Ours: unique among the app's live channels (a match, a route).
    package var name: String
    package var bundleID: String
    /// 0: APNs stores no message (higher publishing budget, expiration 0); 1: it keeps the most recent
    /// one for at most 8 hours and gives it to activities that subscribe later.
    package var storagePolicy: Int
    /// A group whose updates and ends also go out through this channel.
    package var groupID: String?

    package init(name: String, bundleID: String, storagePolicy: Int, groupID: String? = nil) {
        self.name = name
        self.bundleID = bundleID
        self.storagePolicy = storagePolicy
        self.groupID = groupID
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case name
        case bundleID = "bundleId"
        case storagePolicy
        case groupID = "groupId"
    }

    package static let fields = Set(CodingKeys.allCases.map(\.rawValue))
}
