import Foundation
import LiveActivity

// The response bodies of the API, as the server encodes them (`APIJSON.encoder()`: ISO 8601 dates, sorted
// keys, absent optionals left out) and clients decode them (`APIJSON.decoder()`).

/// An activity as the API shows it: tokens shortened, dates ISO 8601.
package struct ActivityView: Codable, Sendable, Hashable {
    package struct TokenStatus: Codable, Sendable, Hashable {
        package var valid: Bool
        package var reason: String?
        package var at: Date?
    }

    package var activityId: String
    /// The current token, shortened (first and last 4 hex digits).
    package var pushToken: String
    package var bundleId: String
    package var attributesType: String
    package var environment: String
    package var userId: String?
    package var groups: [String]
    package var frequentPushesEnabled: Bool
    /// `active`, `ended` or `dismissed`.
    package var state: String
    package var token: TokenStatus
    package var registeredAt: Date
    package var updatedAt: Date
    package var startedAt: Date
    package var endedAt: Date?
    package var dismissalDate: Date?
    package var lastContentState: JSONValue?
    package var lastTimestamp: Date?
}

/// One push in an activity's history.
package struct DeliveryView: Codable, Sendable, Hashable {
    package var pushId: String
    package var kind: String
    package var acceptedAt: Date
    package var sentAt: Date?
    package var priority: Int
    package var requestedPriority: Int
    package var downgradeReason: String?
    package var apnsId: String?
    package var status: Int?
    package var outcome: String
    package var reason: String?
    package var attempts: Int
    package var coalescedInto: String?
}

/// A push still in the outbox.
package struct PendingView: Codable, Sendable, Hashable {
    package var pushId: String
    package var kind: String
    package var acceptedAt: Date
    package var priority: Int
    package var downgradeReason: String?
    package var attempts: Int
    package var nextAttemptAt: Date
    package var lastError: String?
}

/// `GET /v1/activities/{activityId}`.
package struct ActivityDetail: Codable, Sendable, Hashable {
    package var activity: ActivityView
    /// Newest first.
    package var deliveries: [DeliveryView]
    /// Oldest first.
    package var pending: [PendingView]
}

/// A stored push-to-start token as the API shows it.
package struct PushToStartView: Codable, Sendable, Hashable {
    package var id: String
    package var userId: String
    package var deviceId: String
    package var bundleId: String
    package var attributesType: String
    package var environment: String
    package var token: String
    package var valid: Bool
    package var updatedAt: Date
}

/// A user token (`POST /v1/users/{userId}/app-tokens`, 201): the app sends it as `Authorization: Bearer`.
package struct AppTokenView: Codable, Sendable, Hashable {
    package var token: String
    package var userId: String
    package var expiresAt: Date
}

/// A new installation (`POST /v1/installations`, 201): its id (the backend addresses it as a user id)
/// and the token that acts for it. The token does not expire; the app keeps it in its keychain.
package struct InstallationView: Codable, Sendable, Hashable {
    package var installationId: String
    package var token: String
}

/// The 202 answer of a send request: the push ids written to the outbox and what the policy did.
package struct AcceptedPushes: Codable, Sendable, Hashable {
    package struct Coalesced: Codable, Sendable, Hashable {
        /// The earlier pending routine update that will not be sent.
        package var replaced: String
        /// The push that carries the newest content-state instead.
        package var by: String
    }

    package struct Downgraded: Codable, Sendable, Hashable {
        package var pushId: String
        package var reason: String
    }

    package struct Skipped: Codable, Sendable, Hashable {
        package var activityId: String?
        package var pushToStartTokenId: String?
        package var reason: String
    }

    /// Lowercase UUIDs; each is also the push's `apns-id`.
    package var pushIds: [String] = []
    package var coalesced: [Coalesced] = []
    package var downgraded: [Downgraded] = []
    package var skipped: [Skipped] = []
}

/// Every refusal: `{"error":{"field":…,"rule":…,"message":…}}` (`field` is null when no one field is at fault).
package struct JSONErrorBody: Codable, Sendable, Hashable {
    package struct Detail: Codable, Sendable, Hashable {
        package var field: String?
        package var rule: String
        package var message: String

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(field, forKey: .field)
            try container.encode(rule, forKey: .rule)
            try container.encode(message, forKey: .message)
        }
    }

    package var error: Detail
}

/// A broadcast channel as the API shows it.
package struct ChannelView: Codable, Sendable, Hashable {
    package var id: String
    package var name: String
    package var bundleId: String
    /// APNs' channel id: the app subscribes with `pushType: .channel(apnsChannelId)`, and push-to-start
    /// payloads carry it as `input-push-channel`.
    package var apnsChannelId: String
    package var storagePolicy: Int
    package var groupId: String?
    package var createdAt: Date
    package var deletedAt: Date?
}

/// `GET /v1/channels`: the live channels and how close each app is to APNs' limit.
package struct ChannelList: Codable, Sendable, Hashable {
    package var channels: [ChannelView]
    /// Channels each app may have (per environment).
    package var limit: Int
}

/// `GET /v1/channels/{channelId}`: the channel and its newest broadcasts.
package struct ChannelDetail: Codable, Sendable, Hashable {
    package var channel: ChannelView
    package var deliveries: [DeliveryView]
}
