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
    /// stored in one transaction (budget, outbox, content-states, ends). The activities are read in one
    /// store call. Each activity at most once per batch: a later item for the same activity (or for the
    /// activity an earlier item's renewal chain leads to) is refused with `duplicate`.
    func send(batch items: [BatchItem]) async throws(DomainError) -> [BatchItemResult] {
        guard items.count <= Self.maximumBatch else {
            throw .invalid("updates", "maxItems", "a batch takes at most \(Self.maximumBatch) items; \(items.count) were given")
        }
        let now = clock.now()
        let ids = Array(Set(items.map(\.activityID)))
        let byID = try await activitiesByID(ids)
        let shapes = try await shapesByType(of: Array(byID.values))
        var refusals: [ContentStateRefusal] = []
        var results = [BatchItemResult?](repeating: nil, count: items.count)
        var prepared: [PreparedPush] = []
        var positions: [Int] = []
        var seen = Set<String>()
        for (position, item) in items.enumerated() {
            do throws(DomainError) {
                guard let named = byID[item.activityID] else {
                    throw .notFound("activityId", "no activity '\(item.activityID)' is registered")
                }
                let activity = try await renewalHead(named)
                guard seen.insert(activity.activityID).inserted else {
                    throw .invalid(
                        "activityId", "duplicate",
                        "activity '\(activity.activityID)' has an earlier item in this batch; give each activity once (its newest state)")
                }
                if let refusal = Eligibility.refusalToAccept(activity) {
                    throw .conflict("activityId", refusal.rule, refusal.message)
                }
                if let shape = shapes[ShapeKey(activity)],
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

    /// An app's attributes type.
    private struct ShapeKey: Hashable {
        var bundleID: String
        var attributesType: String

        init(_ activity: ActivityRecord) { (bundleID, attributesType) = (activity.bundleID, activity.attributesType) }
        init(_ shape: StoredContentStateShape) { (bundleID, attributesType) = (shape.bundleID, shape.attributesType) }
    }

    /// The shapes of the activities' apps by attributes type (one store call; none when the batch is empty).
    private func shapesByType(of activities: [ActivityRecord]) async throws(DomainError) -> [ShapeKey: StoredContentStateShape] {
        guard !activities.isEmpty else { return [:] }
        let shapes = try await stored { () async throws(PushStoreError) in
            try await store.contentStateShapes(bundleIDs: Array(Set(activities.map(\.bundleID))))
        }
        return Dictionary(shapes.map { (ShapeKey($0), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The stored activities among `ids`, by id (one store call), without their content-states (a push
    /// carries its own).
    private func activitiesByID(_ ids: [String]) async throws(DomainError) -> [String: ActivityRecord] {
        let activities = try await stored { () async throws(PushStoreError) in try await store.activities(ids: ids, contentStates: false) }
        var byID = [String: ActivityRecord](minimumCapacity: activities.count)
        for activity in activities { byID[activity.activityID] = activity }
        return byID
    }
}
