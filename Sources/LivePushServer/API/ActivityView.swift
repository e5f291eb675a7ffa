import Foundation
import LiveActivity
import PushStore

/// An activity as the API shows it: tokens shortened, dates ISO 8601.
struct ActivityView: Encodable, Sendable {
    struct TokenStatus: Encodable, Sendable {
        var valid: Bool
        var reason: String?
        var at: Date?
    }

    var activityId: String
    /// The current token, shortened (first and last 4 hex digits).
    var pushToken: String
    var bundleId: String
    var attributesType: String
    var environment: String
    var userId: String?
    var groups: [String]
    var frequentPushesEnabled: Bool
    var state: String
    var token: TokenStatus
    var registeredAt: Date
    var updatedAt: Date
    var startedAt: Date
    var endedAt: Date?
    var dismissalDate: Date?
    var lastContentState: JSONValue?
    var lastTimestamp: Date?

    init(_ record: ActivityRecord) {
        activityId = record.activityId
        pushToken = record.pushToken.shortened
        bundleId = record.bundleId
        attributesType = record.attributesType
        environment = record.environment.rawValue
        userId = record.userId
        groups = record.groups
        frequentPushesEnabled = record.frequentPushesEnabled
        state = record.state.rawValue
        switch record.tokenState {
        case .valid: token = TokenStatus(valid: true)
        case .invalid(let reason, let at): token = TokenStatus(valid: false, reason: reason, at: at)
        }
        registeredAt = record.registeredAt
        updatedAt = record.updatedAt
        startedAt = record.startedAt
        endedAt = record.endedAt
        dismissalDate = record.dismissalDate
        lastContentState = record.lastContentState
        lastTimestamp = record.lastTimestamp
    }
}

/// One push in an activity's history.
struct DeliveryView: Encodable, Sendable {
    var pushId: String
    var kind: String
    var acceptedAt: Date
    var sentAt: Date?
    var priority: Int
    var requestedPriority: Int
    var downgradeReason: String?
    var apnsId: String?
    var status: Int?
    var outcome: String
    var reason: String?
    var attempts: Int
    var coalescedInto: String?

    init(_ record: DeliveryRecord) {
        pushId = record.pushId.lowercased
        kind = record.kind.rawValue
        acceptedAt = record.acceptedAt
        sentAt = record.sentAt
        priority = record.priority.rawValue
        requestedPriority = record.requestedPriority.rawValue
        downgradeReason = record.downgradeReason
        apnsId = record.apnsId
        status = record.status
        outcome = record.outcome.rawValue
        reason = record.reason
        attempts = record.attempts
        coalescedInto = record.coalescedInto?.lowercased
    }
}

/// A push still in the outbox.
struct PendingView: Encodable, Sendable {
    var pushId: String
    var kind: String
    var acceptedAt: Date
    var priority: Int
    var downgradeReason: String?
    var attempts: Int
    var nextAttemptAt: Date
    var lastError: String?

    init(_ item: OutboxItem) {
        pushId = item.pushId.lowercased
        kind = item.kind.rawValue
        acceptedAt = item.acceptedAt
        priority = item.priority.rawValue
        downgradeReason = item.downgradeReason
        attempts = item.attempts
        nextAttemptAt = item.nextAttemptAt
        lastError = item.lastError
    }
}

/// `GET /v1/activities/{activityId}`.
struct ActivityDetail: Encodable, Sendable {
    var activity: ActivityView
    /// Newest first.
    var deliveries: [DeliveryView]
    /// Oldest first.
    var pending: [PendingView]
}

/// A stored push-to-start token as the API shows it.
struct PushToStartView: Encodable, Sendable {
    var id: String
    var userId: String
    var deviceId: String
    var bundleId: String
    var attributesType: String
    var environment: String
    var token: String
    var valid: Bool
    var updatedAt: Date

    init(_ record: PushToStartTokenRecord) {
        id = record.id.lowercased
        userId = record.userId
        deviceId = record.deviceId
        bundleId = record.bundleId
        attributesType = record.attributesType
        environment = record.environment.rawValue
        token = record.token.shortened
        valid = record.tokenState.isValid
        updatedAt = record.updatedAt
    }
}
