import APNsCore
import Foundation
import LiveActivity

/// How a push ended.
package enum DeliveryOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// APNs answered 200.
    case accepted
    /// APNs refused it for good (4xx).
    case rejected
    /// It could not be delivered (retries exhausted, no usable token, transport failures).
    case failed
    /// Its expiration passed before it could be delivered.
    case expired
    /// A newer push replaced it while it waited (a newer routine update, or for a group send's push, any
    /// push to the activity accepted after the group send).
    case coalesced
}

/// What a worker reports when it is done with a claimed push: which push, and how it ended.
package struct DeliveryResult: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case pushID = "pushId"
        case outcome, sentAt
        case apnsID = "apnsId"
        case status, reason, attempts
        case apnsUniqueID = "apnsUniqueId"
    }

    /// The longest reason the store keeps, and the longest `lastError` of a rescheduled push.
    package static let maximumReasonLength = 500

    /// `text` cut to `maximum` characters (the last one an ellipsis): an answer from a proxy in front of
    /// APNs can be any length, and must not make the store refuse a whole batch of outcomes.
    package static func shortened(_ text: String, maximum: Int = maximumReasonLength) -> String {
        text.count <= maximum ? text : String(text.prefix(maximum - 1)) + "…"
    }

    package var pushID: UUID
    package var outcome: DeliveryOutcome
    /// When the last request was sent, if one was.
    package var sentAt: Date?
    /// The `apns-id` of the answer.
    package var apnsID: String?
    /// The HTTP status of the answer.
    package var status: Int?
    /// The APNs reason (or another short explanation for `failed`/`expired`), at most
    /// `maximumReasonLength` characters (see `shortened`).
    package var reason: String?
    /// Attempts made in total.
    package var attempts: Int
    /// The `apns-unique-id` of the answer: APNs sends one in the development environment only, and Apple's
    /// Push Notifications Console looks the delivery up by it.
    package var apnsUniqueID: String?

    package init(
        pushID: UUID, outcome: DeliveryOutcome, sentAt: Date? = nil, apnsID: String? = nil, status: Int? = nil,
        reason: String? = nil, attempts: Int, apnsUniqueID: String? = nil
    ) {
        self.pushID = pushID
        self.outcome = outcome
        self.sentAt = sentAt
        self.apnsID = apnsID
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.apnsUniqueID = apnsUniqueID
    }
}

/// The history entry of one push, written when it leaves the outbox: what was accepted (from its
/// ``OutboxItem``) and how it ended (from its ``DeliveryResult``).
package struct DeliveryRecord: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case pushID = "pushId"
        case target, kind, acceptedAt, sentAt, priority, requestedPriority, downgradeReason
        case apnsID = "apnsId"
        case status, reason, attempts, outcome, coalescedInto, recordedAt
        case sendID = "sendId"
        case apnsUniqueID = "apnsUniqueId"
    }

    package var pushID: UUID
    package var target: OutboxTarget
    package var kind: LiveActivityEvent
    package var acceptedAt: Date
    package var sentAt: Date?
    package var priority: APNsPriority
    package var requestedPriority: APNsPriority
    package var downgradeReason: String?
    package var apnsID: String?
    package var status: Int?
    package var reason: String?
    package var attempts: Int
    package var outcome: DeliveryOutcome
    /// For `coalesced`: the push that replaced this one.
    package var coalescedInto: UUID?
    /// When the record was written.
    package var recordedAt: Date
    /// The group send the push belonged to, if any.
    package var sendID: UUID? = nil
    /// The `apns-unique-id` APNs answered (development environment only).
    package var apnsUniqueID: String? = nil

    package init(
        pushID: UUID, target: OutboxTarget, kind: LiveActivityEvent, acceptedAt: Date, sentAt: Date?, priority: APNsPriority,
        requestedPriority: APNsPriority, downgradeReason: String?, apnsID: String?, status: Int?, reason: String?, attempts: Int,
        outcome: DeliveryOutcome, coalescedInto: UUID?, recordedAt: Date, sendID: UUID? = nil, apnsUniqueID: String? = nil
    ) {
        self.pushID = pushID
        self.target = target
        self.kind = kind
        self.acceptedAt = acceptedAt
        self.sentAt = sentAt
        self.priority = priority
        self.requestedPriority = requestedPriority
        self.downgradeReason = downgradeReason
        self.apnsID = apnsID
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.outcome = outcome
        self.coalescedInto = coalescedInto
        self.recordedAt = recordedAt
        self.sendID = sendID
        self.apnsUniqueID = apnsUniqueID
    }

    /// The activity the push went to, nil for push-to-start pushes.
    package var activityID: String? { target.activityID }
}

extension DeliveryRecord {
    /// The record of `item` leaving the outbox with `result` (whose push id is the item's).
    package init(_ item: OutboxItem, _ result: DeliveryResult, coalescedInto: UUID? = nil, recordedAt: Date) {
        self.init(
            pushID: item.pushID, target: item.target, kind: item.kind, acceptedAt: item.acceptedAt,
            sentAt: result.sentAt, priority: item.priority, requestedPriority: item.requestedPriority,
            downgradeReason: item.downgradeReason, apnsID: result.apnsID, status: result.status,
            reason: result.reason, attempts: result.attempts, outcome: result.outcome, coalescedInto: coalescedInto,
            recordedAt: recordedAt, sendID: item.sendID, apnsUniqueID: result.apnsUniqueID)
    }
}

/// The answer of ``OutboxStore/complete(owner:results:at:)``.
package struct CompletionReport: Sendable, Hashable, Codable {
    /// The delivery records written, in the order of the request.
    package var records: [DeliveryRecord]
    /// Pushes skipped because the worker no longer holds them (gone, or claimed again by another
    /// worker after the lease ended), in the order of the request.
    package var notHeld: [UUID]

    package init(records: [DeliveryRecord], notHeld: [UUID]) {
        self.records = records
        self.notHeld = notHeld
    }
}
