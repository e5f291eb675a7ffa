import Foundation
import LiveActivity
import PushStore

/// A batch of per-activity updates and ends: the commonest workload (one Live Activity per order, ride or
/// flight, each with its own content-state) in one request and one transaction.
extension PushService {
    /// One item of a batch: an update or end to one activity, with its own content.
    struct BatchItem: Sendable {
        var kind: LiveActivityEvent
        var activityID: String
        var content: PushContent
    }

    /// What became of one item.
    enum BatchItemResult: Sendable, Hashable {
        /// In the outbox as `pushID`; `replaced`: earlier pending routine updates of the activity that this
        /// push replaces; `downgrade`: why it goes at priority 5 although 10 was asked for.
        case accepted(activityID: String, pushID: UUID, replaced: [UUID], downgrade: String?)
        /// Not accepted, for the reason given; nothing of it was stored.
        case refused(activityID: String, DomainError)
    }

    /// The most items one batch takes.
    static let maximumBatch = 1000

    /// Accepts each item that can be sent and refuses the others with their reason; the accepted ones are
    /// stored in one transaction (budget, outbox, content-states, ends). The activities, with their apps'
    /// shapes and renewal links, are read in one store call (and one more per renewal link followed). Each activity at most once per batch: a later item for the same activity (or for the
    /// activity an earlier item's renewal chain leads to) is refused with `duplicate`.
    func send(batch items: [BatchItem]) async throws(DomainError) -> [BatchItemResult] {
        guard items.count <= Self.maximumBatch else {
            throw .invalid("updates", "maxItems", "a batch takes at most \(Self.maximumBatch) items; \(items.count) were given")
        }
        let now = clock.now()
        let known = try await activitiesToSend(Array(Set(items.map(\.activityID))))
        var refusals: [ContentStateRefusal] = []
        var results = [BatchItemResult?](repeating: nil, count: items.count)
        var prepared: [PreparedPush] = []
        var positions: [Int] = []
        var seen = Set<String>()
        for (position, item) in items.enumerated() {
            do throws(DomainError) {
                guard let named = known[item.activityID] else {
                    throw .notFound("activityId", "no activity '\(item.activityID)' is registered")
                }
                let head = Self.renewalHead(named, in: known)
                let activity = head.activity
                guard seen.insert(activity.activityID).inserted else {
                    throw .invalid(
                        "activityId", "duplicate",
                        "activity '\(activity.activityID)' has an earlier item in this batch; give each activity once (its newest state)")
                }
                if let refusal = Eligibility.refusalToAccept(activity) {
                    throw .conflict("activityId", refusal.rule, refusal.message)
                }
                if let shape = head.shape,
                    let refusal = contentStates.refusal(
                        Self.sentContentState(item.kind, item.content), against: [shape], target: "activity:" + activity.activityID,
                        activityID: activity.activityID)
                {
                    refusals += refusal.records
                    throw refusal.error
                }
                prepared.append(try prepare(item.kind, item.content, for: activity, now: now))
                positions.append(position)
            } catch {
                results[position] = .refused(activityID: item.activityID, error)
            }
        }
        await contentStates.record(refusals)
        let outcome = try await accept(prepared, endCause: .backend, now: now)
        var replacedBy = [UUID: [UUID]]()
        for coalesced in outcome.enqueued.coalesced { replacedBy[coalesced.by, default: []].append(coalesced.replaced) }
        for (push, position) in zip(outcome.pushes, positions) {
            results[position] = .accepted(
                activityID: push.target.activityID ?? items[position].activityID, pushID: push.pushID, replaced: replacedBy[push.pushID] ?? [],
                downgrade: push.downgradeReason)
        }
        return results.enumerated().map { position, result in
            result ?? .refused(activityID: items[position].activityID, .invalid(nil, "internal", "the item was neither accepted nor refused"))
        }
    }

    /// The activities among `ids` with their apps' shapes, by id, and the activities renewals link them to,
    /// as ``renewalHead(_:)`` follows the links: one store call, and one more per link followed, only when a
    /// renewed activity is among them.
    private func activitiesToSend(_ ids: [String]) async throws(DomainError) -> [String: ActivityToSend] {
        var known = [String: ActivityToSend](minimumCapacity: ids.count)
        var wanted = ids
        for _ in 0...Self.maximumLinks where !wanted.isEmpty {
            let found = try await stored { () async throws(PushStoreError) in try await store.activitiesToSend(ids: wanted) }
            for entry in found { known[entry.activity.activityID] = entry }
            let successors = found.compactMap { $0.activity.state == .active ? nil : $0.renewedBy }
            wanted = Array(Set(successors.filter { known[$0] == nil }))
        }
        return known
    }

    /// ``renewalHead(_:)`` among activities already read.
    private static func renewalHead(_ named: ActivityToSend, in known: [String: ActivityToSend]) -> ActivityToSend {
        var current = named
        for _ in 0..<maximumLinks where current.activity.state != .active {
            guard let next = current.renewedBy, let successor = known[next] else { break }
            current = successor
        }
        return current
    }
}
