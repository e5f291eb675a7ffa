import APNsCore
import Foundation
import LiveActivity

/// How urgent the caller said a push is. Routine updates waiting in the outbox are coalesced.
package enum PushImportance: String, Sendable, Hashable, Codable, CaseIterable {
    case routine
    case timeSensitive
}

/// Where a push goes: a registered activity, a stored push-to-start token, or a broadcast channel
/// (every activity subscribed to it).
package enum OutboxTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    case activity(id: String)
    case pushToStartToken(id: UUID)
    case channel(id: UUID)

    /// The activity id for `.activity`, nil otherwise.
    package var activityID: String? {
        if case .activity(let id) = self { return id }
        return nil
    }

    package var description: String {
        switch self {
        case .activity(let id): return "activity \(id)"
        case .pushToStartToken(let id): return "push-to-start token \(id.lowercased)"
        case .channel(let id): return "channel \(id.lowercased)"
        }
    }
}

/// A worker's hold on an outbox item: nobody else claims it until `until` has passed.
package struct OutboxClaim: Sendable, Hashable, Codable {
    package var owner: String
    package var until: Date
}

/// An accepted push waiting to be sent. The payload is the complete `aps` JSON body, with its
/// timestamp fixed at acceptance, so sending it again after a crash is harmless.
package struct OutboxItem: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case pushID = "pushId"
        case target, kind, payload, priority, requestedPriority, importance, downgradeReason, collapseKey, expiration, acceptedAt, attempts,
            nextAttemptAt, claim, lastError
        case sendID = "sendId"
    }

    package var pushID: UUID
    package var target: OutboxTarget
    package var kind: LiveActivityEvent
    /// The JSON body sent to APNs.
    package var payload: Data
    /// The priority to send with: 5 or 10 (after the budget policy).
    package var priority: APNsPriority
    /// The priority the caller asked for (or derived from its importance): 5 or 10.
    package var requestedPriority: APNsPriority
    package var importance: PushImportance
    /// Why `priority` is lower than `requestedPriority`, when it is.
    package var downgradeReason: String?
    /// `apns-collapse-id`, at most 64 bytes.
    package var collapseKey: String?
    /// `apns-expiration`; retries stop after it.
    package var expiration: Date?
    package var acceptedAt: Date
    /// Attempts made so far.
    package var attempts: Int
    /// Not claimed before this time.
    package var nextAttemptAt: Date
    /// The current claim, if a worker holds (or held) one.
    package var claim: OutboxClaim?
    /// The error of the last failed attempt.
    package var lastError: String?
    /// The group send this push belongs to (a retry of one of its pushes), if any.
    package var sendID: UUID?

    package init(
        pushID: UUID = .random(), target: OutboxTarget, kind: LiveActivityEvent, payload: Data,
        priority: APNsPriority, requestedPriority: APNsPriority? = nil, importance: PushImportance,
        downgradeReason: String? = nil, collapseKey: String? = nil, expiration: Date? = nil,
        acceptedAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil, claim: OutboxClaim? = nil,
        lastError: String? = nil, sendID: UUID? = nil
    ) {
        self.pushID = pushID
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
        self.sendID = sendID
    }

    /// True for the pushes that coalesce while waiting: routine updates.
    package var isCoalescable: Bool { kind == .update && importance == .routine }
}

/// A pending push that a newer routine update replaced before it was sent.
package struct CoalescedPush: Sendable, Hashable, Codable {
    /// The push that will not be sent (its delivery record says `coalesced`).
    package var replaced: UUID
    /// The newer push that carries the newest content-state instead.
    package var by: UUID
}

/// The answer of ``OutboxStore/enqueue(_:)``.
package struct EnqueueResult: Sendable, Hashable, Codable {
    /// Every push id of the batch, in order: all are durable (or recorded as coalesced).
    package var accepted: [UUID]
    /// Pending or same-batch routine updates that newer ones replaced.
    package var coalesced: [CoalescedPush]

    package var coalescedCount: Int { coalesced.count }

    package init(accepted: [UUID], coalesced: [CoalescedPush]) {
        self.accepted = accepted
        self.coalesced = coalesced
    }
}
