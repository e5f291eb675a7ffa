import Foundation
import LiveActivity

// The response bodies of the API, as the server encodes them (`APIJSON.encoder()`: ISO 8601 dates, sorted
// keys, absent optionals left out) and clients decode them (`APIJSON.decoder()`).

/// An activity as the API shows it: tokens shortened, dates ISO 8601.
package struct ActivityView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case activityID = "activityId"
        case pushToken
        case bundleID = "bundleId"
        case attributesType, environment
        case userID = "userId"
        case groups, frequentPushesEnabled, state, token, registeredAt, updatedAt, startedAt, endedAt, dismissalDate, lastContentState, lastTimestamp
    }

    package struct TokenStatus: Codable, Sendable, Hashable {
        package var valid: Bool
        package var reason: String?
        package var at: Date?
    }

    package var activityID: String
    /// The current token, shortened (first and last 4 hex digits).
    package var pushToken: String
    package var bundleID: String
    package var attributesType: String
    package var environment: String
    package var userID: String?
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
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case pushID = "pushId"
        case kind, acceptedAt, sentAt, priority, requestedPriority, downgradeReason
        case apnsID = "apnsId"
        case status, outcome, reason, attempts, coalescedInto
        case sendID = "sendId"
        case apnsUniqueID = "apnsUniqueId"
    }

    package var pushID: String
    package var kind: String
    package var acceptedAt: Date
    package var sentAt: Date?
    package var priority: Int
    package var requestedPriority: Int
    package var downgradeReason: String?
    package var apnsID: String?
    package var status: Int?
    package var outcome: String
    package var reason: String?
    package var attempts: Int
    package var coalescedInto: String?
    /// The group send the push belonged to (`GET /v1/sends/{sendId}`), if any.
    package var sendID: String?
    /// The `apns-unique-id` APNs answered (development environment only).
    package var apnsUniqueID: String?
}

/// A push still in the outbox.
package struct PendingView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case pushID = "pushId"
        case kind, acceptedAt, priority, downgradeReason, attempts, nextAttemptAt, lastError
    }

    package var pushID: String
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
    /// The activity's renewal and the links of its chain; absent when it neither opted in nor renews another.
    package var renewal: RenewalView? = nil
}

/// A stored push-to-start token as the API shows it.
package struct PushToStartView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case id
        case userID = "userId"
        case deviceID = "deviceId"
        case bundleID = "bundleId"
        case attributesType, environment, token, valid, updatedAt, source, refreshedAt
    }

    package var id: String
    package var userID: String
    package var deviceID: String
    package var bundleID: String
    package var attributesType: String
    package var environment: String
    package var token: String
    package var valid: Bool
    package var updatedAt: Date
    /// `stream` or `property`: where the app read the token when it last reported it; nil when it did not say.
    package var source: String? = nil
    /// When the app last reported the token; nil for a token not reported since schema 9.
    package var refreshedAt: Date? = nil
}

/// A user token (`POST /v1/users/{userId}/app-tokens`, 201): the app sends it as `Authorization: Bearer`.
package struct AppTokenView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case token
        case userID = "userId"
        case expiresAt
    }

    package var token: String
    package var userID: String
    package var expiresAt: Date
}

/// A new installation (`POST /v1/installations`, 201): its id (the backend addresses it as a user id)
/// and the token that acts for it, until `expiresAt`; the app keeps it in its keychain and renews it.
package struct InstallationView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case installationID = "installationId"
        case token, expiresAt
    }

    package var installationID: String
    package var token: String
    /// When the token stops working; renew it before then (`POST /v1/installations/{installationId}/token`).
    package var expiresAt: Date
}

/// The answer of `POST /v1/users/{userId}/sign-out`: every app token of the user issued before now is
/// refused from now on, and the user's push-to-start tokens were released.
package struct SignOutView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case userID = "userId"
        case pushToStartTokensReleased
    }

    package var userID: String
    package var pushToStartTokensReleased: Int
}

/// The answer of `DELETE /v1/push-to-start-tokens/{deviceId}`: how many of the device's tokens (one per
/// attributes type and bundle) were released.
package struct ReleasedPushToStartTokensView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case deviceID = "deviceId"
        case released
    }

    package var deviceID: String
    package var released: Int
}

/// The 202 answer of a send request: the push ids written to the outbox and what the policy did.
package struct AcceptedPushes: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case pushIDs = "pushIds"
        case coalesced, downgraded, skipped
    }

    package struct Coalesced: Codable, Sendable, Hashable {
        /// The earlier pending routine update that will not be sent.
        package var replaced: String
        /// The push that carries the newest content-state instead.
        package var by: String
    }

    package struct Downgraded: Codable, Sendable, Hashable {
        // The JSON names stay as the API and the simulator have always spelled them.
        enum CodingKeys: String, CodingKey {
            case pushID = "pushId"
            case reason
        }

        package var pushID: String
        package var reason: String
    }

    package struct Skipped: Codable, Sendable, Hashable {
        // The JSON names stay as the API and the simulator have always spelled them.
        enum CodingKeys: String, CodingKey {
            case activityID = "activityId"
            case pushToStartTokenID = "pushToStartTokenId"
            case reason
        }

        package var activityID: String?
        package var pushToStartTokenID: String?
        package var reason: String
    }

    /// Lowercase UUIDs; each is also the push's `apns-id`.
    package var pushIDs: [String] = []
    package var coalesced: [Coalesced] = []
    package var downgraded: [Downgraded] = []
    package var skipped: [Skipped] = []
}

/// A group send: its id (to read its progress at `GET /v1/sends/{sendId}`) and how far it has come. The
/// 202 answer of `POST /v1/groups/{groupId}/update|end` is this, with every count 0; the pushes go out in
/// pages of the group's members (so the answer takes as long for 100,000 members as for 10).
package struct GroupSendView: Codable, Sendable, Hashable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case sendID = "sendId"
        case groupID = "groupId"
        case kind, state, acceptedAt, finishedAt, counts
        case broadcastPushIDs = "broadcastPushIds"
    }

    package struct Counts: Codable, Sendable, Hashable {
        /// Members handed out to be sent so far (all of them once `state` is `sending` or `finished`).
        package var targeted: Int
        /// Accepted by APNs.
        package var sent: Int
        /// Refused by APNs, undeliverable, or expired.
        package var failed: Int
        /// Sent at priority 5 because the activity's priority-10 budget was used.
        package var downgraded: Int
        /// Not sent: a push accepted later for the activity, or a newer routine group update, replaced it.
        package var coalesced: Int
        /// Not sent: the member was ended, dismissed or without a valid token when its turn came.
        package var skipped: Int
        /// Waiting for another attempt (APNs or the connection failed).
        package var retrying: Int
        /// Not yet sent, coalesced, skipped or failed (retrying included).
        package var pending: Int
    }

    package var sendID: String
    package var groupID: String
    package var kind: String
    /// `accepted` (no member handed out yet), `expanding` (members still being handed out), `sending` (all
    /// handed out, outcomes pending) or `finished`.
    package var state: String
    package var acceptedAt: Date
    package var finishedAt: Date?
    package var counts: Counts
    /// The broadcasts to the channels linked to the group (their push ids), sent besides the members.
    package var broadcastPushIDs: [String]
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
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case id, name
        case bundleID = "bundleId"
        case apnsChannelID = "apnsChannelId"
        case storagePolicy
        case groupID = "groupId"
        case createdAt, deletedAt
    }

    package var id: String
    package var name: String
    package var bundleID: String
    /// APNs' channel id: the app subscribes with `pushType: .channel(apnsChannelId)`, and push-to-start
    /// payloads carry it as `input-push-channel`.
    package var apnsChannelID: String
    package var storagePolicy: Int
    package var groupID: String?
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
