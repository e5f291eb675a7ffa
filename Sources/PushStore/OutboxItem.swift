import APNsCore
import Foundation

/// What a push does to a Live Activity.
public enum PushKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Starts an activity through a push-to-start token.
    case start
    /// Updates the content-state of a running activity.
    case update
    /// Ends an activity.
    case end
}

/// How urgent the caller said a push is. Routine updates waiting in the outbox are coalesced.
public enum PushImportance: String, Sendable, Hashable, Codable, CaseIterable {
    case routine
    case timeSensitive
}

/// Where a push goes: a registered activity, or a stored push-to-start token.
public enum OutboxTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    case activity(id: String)
    case pushToStartToken(id: UUID)

    /// The activity id for `.activity`, nil otherwise.
    public var activityId: String? {
        if case .activity(let id) = self { return id }
        return nil
    }

    public var description: String {
        switch self {
        case .activity(let id): return "activity \(id)"
        case .pushToStartToken(let id): return "push-to-start token \(id.uuidString.lowercased())"
        }
    }
}

/// A worker's hold on an outbox item: nobody else claims it until `until` has passed.
public struct OutboxClaim: Sendable, Hashable, Codable {
    public var owner: String
    public var until: Date

    public init(owner: String, until: Date) {
        self.owner = owner
        self.until = until
    }
}

/// An accepted push waiting to be sent. The payload is the complete `aps` JSON body, with its
/// timestamp fixed at acceptance, so sending it again after a crash is harmless.
public struct OutboxItem: Sendable, Hashable, Codable {
    public var pushId: UUID
    public var target: OutboxTarget
    public var kind: PushKind
    /// The JSON body sent to APNs.
    public var payload: Data
    /// The priority to send with: 5 or 10 (after the budget policy).
    public var priority: APNsPriority
    /// The priority the caller asked for (or derived from its importance): 5 or 10.
    public var requestedPriority: APNsPriority
    public var importance: PushImportance
    /// Why `priority` is lower than `requestedPriority`, when it is.
    public var downgradeReason: String?
    /// `apns-collapse-id`, at most 64 bytes.
    public var collapseKey: String?
    /// `apns-expiration`; retries stop after it.
    public var expiration: Date?
    public var acceptedAt: Date
    /// Attempts made so far.
    public var attempts: Int
    /// Not claimed before this time.
    public var nextAttemptAt: Date
    /// The current claim, if a worker holds (or held) one.
    public var claim: OutboxClaim?
    /// The error of the last failed attempt.
    public var lastError: String?

    public init(
        pushId: UUID = UUID(), target: OutboxTarget, kind: PushKind, payload: Data,
        priority: APNsPriority, requestedPriority: APNsPriority? = nil, importance: PushImportance,
        downgradeReason: String? = nil, collapseKey: String? = nil, expiration: Date? = nil,
        acceptedAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil, claim: OutboxClaim? = nil,
        lastError: String? = nil
    ) {
        self.pushId = pushId
        self.target = target
        self.kind = kind
        self.payload = payload
        self.priority = priority
        self.requestedPriority = requestedPriority ?? priority
        self.importance = importance
        self.downgradeReason = downgradeReason
        self.collapseKey = collapseKey
        self.expiration = expiration
        self.acceptedAt = acceptedAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? acceptedAt
        self.claim = claim
        self.lastError = lastError
    }

    /// True for the pushes that coalesce while waiting: routine updates.
    public var isCoalescable: Bool { kind == .update && importance == .routine }
}

/// A pending push that a newer routine update replaced before it was sent.
public struct CoalescedPush: Sendable, Hashable, Codable {
    /// The push that will not be sent (its delivery record says `coalesced`).
    public var replaced: UUID
    /// The newer push that carries the newest content-state instead.
    public var by: UUID

    public init(replaced: UUID, by: UUID) {
        self.replaced = replaced
        self.by = by
    }
}

/// The answer of ``PushStore/enqueue(_:)``.
public struct EnqueueResult: Sendable, Hashable, Codable {
    /// Every push id of the batch, in order: all are durable (or recorded as coalesced).
    public var accepted: [UUID]
    /// Pending or same-batch routine updates that newer ones replaced.
    public var coalesced: [CoalescedPush]

    public init(accepted: [UUID], coalesced: [CoalescedPush]) {
        self.accepted = accepted
        self.coalesced = coalesced
    }

    public var coalescedCount: Int { coalesced.count }
}
