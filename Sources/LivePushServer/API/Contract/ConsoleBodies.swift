import Foundation

// The answers of the operator routes (`/v1/operator/…`), as `openapi.json` documents them.

/// `GET /v1/operator/overview`.
package struct ConsoleOverviewView: Codable, Sendable, Hashable {
    package struct Failure: Codable, Sendable, Hashable {
        package var reason: String
        package var count: Int
        /// What to do about it, for APNs' own reasons.
        package var remedy: String?
    }

    package struct Channels: Codable, Sendable, Hashable {
        enum CodingKeys: String, CodingKey {
            case bundleID = "bundleId"
            case count, limit
        }

        package var bundleID: String
        package var count: Int
        package var limit: Int
    }

    /// An instance of the server and the leases its workers hold now.
    package struct Instance: Codable, Sendable, Hashable {
        enum CodingKeys: String, CodingKey {
            case instanceID = "instanceId"
            case thisInstance, outbox, groupPages, webhooks, leaseUntil
        }

        package var instanceID: String
        /// The instance that answered.
        package var thisInstance: Bool
        /// Outbox pushes, group pages and webhook events it holds.
        package var outbox: Int
        package var groupPages: Int
        package var webhooks: Int
        /// The latest end of its leases; nil when it holds none.
        package var leaseUntil: Date?
    }

    package var at: Date
    /// Deliveries per second over the last minute, by outcome.
    package var pushesPerSecond: [String: Double]
    /// Refused, failed and expired pushes of the last hour by reason, most first.
    package var failures: [Failure]
    package var downgradesLastHour: Int
    package var outboxDepth: Int
    package var openGroupSends: Int
    package var webhookDepth: Int
    package var channels: [Channels]
    /// This instance first, then those holding leases (on PostgreSQL, every instance sharing the database that is working).
    package var instances: [Instance]
}

/// `GET /v1/operator/activities`: a page, and the cursor of the next one when there is one.
package struct ConsoleActivityList: Codable, Sendable, Hashable {
    package var activities: [ActivityView]
    package var next: String?
}

/// `GET /v1/operator/sends`: a page of group sends and, on the first page, the broadcasts.
package struct ConsoleSendList: Codable, Sendable, Hashable {
    package var sends: [GroupSendView]
    package var next: String?
    package var broadcasts: [ConsoleBroadcastsView]
}

/// A live broadcast channel with its waiting and newest done broadcasts.
package struct ConsoleBroadcastsView: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case channelID = "channelId"
        case bundleID = "bundleId"
        case groupID = "groupId"
        case name, pending, deliveries
    }

    package var channelID: String
    package var name: String
    package var bundleID: String
    package var groupID: String?
    package var pending: [PendingView]
    package var deliveries: [DeliveryView]
}

/// A push-to-start token of the activity's user, with its age and whether it looks stale.
package struct ConsolePushToStartView: Codable, Sendable, Hashable {
    package var token: PushToStartView
    package var ageSeconds: Int
    /// Invalid, or not reported by the app for 7 days.
    package var stale: Bool
}

/// The priority-10 budget of the activity in the current hour.
package struct ConsoleBudgetView: Codable, Sendable, Hashable {
    package var used: Int
    package var limit: Int
    package var left: Int
}

/// `GET /v1/operator/activities/{activityId}`.
package struct ConsoleActivityView: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case activity, deliveries, pending, pushToStartTokens, budget, tokenSince, tokenAgeSeconds
        case fromConsole = "consolePushIds"
    }

    package var activity: ActivityView
    /// When its current token arrived (registration or its last rotation), and how long ago.
    package var tokenSince: Date
    package var tokenAgeSeconds: Int
    package var deliveries: [DeliveryView]
    package var pending: [PendingView]
    /// The push ids among the deliveries and pending pushes that the console sent.
    package var fromConsole: [String]
    package var pushToStartTokens: [ConsolePushToStartView]
    package var budget: ConsoleBudgetView
}
