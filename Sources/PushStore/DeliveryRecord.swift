import APNsCore
import Foundation

/// How a push ended.
public enum DeliveryOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// APNs answered 200.
    case accepted
    /// APNs refused it for good (4xx).
    case rejected
    /// It could not be delivered (retries exhausted, no usable token, transport failures).
    case failed
    /// Its expiration passed before it could be delivered.
    case expired
    /// A newer routine update replaced it while it waited.
    case coalesced
}

/// What a worker reports when it is done with a claimed push.
public struct DeliveryResult: Sendable, Hashable, Codable {
    public var outcome: DeliveryOutcome
    /// When the last request was sent, if one was.
    public var sentAt: Date?
    /// The `apns-id` of the answer.
    public var apnsId: String?
    /// The HTTP status of the answer.
    public var status: Int?
    /// The APNs reason (or another short explanation for `failed`/`expired`).
    public var reason: String?
    /// Attempts made in total.
    public var attempts: Int

    public init(
        outcome: DeliveryOutcome, sentAt: Date? = nil, apnsId: String? = nil, status: Int? = nil,
        reason: String? = nil, attempts: Int
    ) {
        self.outcome = outcome
        self.sentAt = sentAt
        self.apnsId = apnsId
        self.status = status
        self.reason = reason
        self.attempts = attempts
    }
}

/// The history entry of one push, written when it leaves the outbox.
public struct DeliveryRecord: Sendable, Hashable, Codable {
    public var pushId: UUID
    public var target: OutboxTarget
    public var kind: PushKind
    public var acceptedAt: Date
    public var sentAt: Date?
    public var priority: APNsPriority
    public var requestedPriority: APNsPriority
    public var downgradeReason: String?
    public var apnsId: String?
    public var status: Int?
    public var reason: String?
    public var attempts: Int
    public var outcome: DeliveryOutcome
    /// For `coalesced`: the push that replaced this one.
    public var coalescedInto: UUID?
    /// When the record was written.
    public var recordedAt: Date

    public init(
        pushId: UUID, target: OutboxTarget, kind: PushKind, acceptedAt: Date, sentAt: Date?,
        priority: APNsPriority, requestedPriority: APNsPriority, downgradeReason: String?, apnsId: String?,
        status: Int?, reason: String?, attempts: Int, outcome: DeliveryOutcome, coalescedInto: UUID?,
        recordedAt: Date
    ) {
        self.pushId = pushId
        self.target = target
        self.kind = kind
        self.acceptedAt = acceptedAt
        self.sentAt = sentAt
        self.priority = priority
        self.requestedPriority = requestedPriority
        self.downgradeReason = downgradeReason
        self.apnsId = apnsId
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.outcome = outcome
        self.coalescedInto = coalescedInto
        self.recordedAt = recordedAt
    }

    /// The activity the push went to, nil for push-to-start pushes.
    public var activityId: String? { target.activityId }
}

/// One entry of a batch completion: which claimed push, and how it ended.
public struct PushCompletion: Sendable, Hashable, Codable {
    public var pushId: UUID
    public var result: DeliveryResult

    public init(pushId: UUID, result: DeliveryResult) {
        self.pushId = pushId
        self.result = result
    }
}

/// The answer of a batch completion.
public struct CompletionReport: Sendable, Hashable, Codable {
    /// The delivery records written, in the order of the request.
    public var records: [DeliveryRecord]
    /// Pushes skipped because the worker no longer holds them (gone, or claimed again by another
    /// worker after the lease ended), in the order of the request.
    public var notHeld: [UUID]

    public init(records: [DeliveryRecord], notHeld: [UUID]) {
        self.records = records
        self.notHeld = notHeld
    }
}
