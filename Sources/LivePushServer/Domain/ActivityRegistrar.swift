import Foundation
import LiveActivity
import PushStore

/// An app's registration of a Live Activity with what may come with it, in this order: the renewal it asks
/// for (or the activity it takes over from) checked, the activity stored, then linked to what started it
/// (a Live Activity resource or a renewal), and the app's content-state shape learnt.
struct ActivityRegistrar: Sendable {
    let activities: ActivityService
    let renewals: RenewalService
    let resources: LiveActivityResourceService
    let shapes: ContentStateShapeService

    /// Registers `registration` as `actor` with `grant`: `plan` is its own renewal, `renews` the activity it
    /// takes over from, `resourceKey` the Live Activity resource key the app reported, `shape` the app's
    /// ContentState shape (each optional). Returns the stored activity.
    func register(
        _ registration: ActivityRegistration, as actor: AppActor, grant: GroupGrant, plan: RenewalRequest?, renews: String?,
        resourceKey key: String?, shape: ContentStateShape?
    ) async throws(DomainError) -> ActivityRecord {
        try await renewals.check(registration, plan: plan, renews: renews, owner: try actor.owner(claimed: registration.userID))
        let record = try await activities.register(registration, as: actor, grant: grant)
        // A Live Activity resource's start (by the key the app reported) comes before the renewal a start
        // without a key may answer; without a key, a renewal's start is tried first.
        var linked = false
        if let key { linked = try await resources.registered(record, key: key) }
        let renewed = try await renewals.registered(record, plan: plan, renews: renews, linkImplicitly: !linked)
        if !linked, !renewed, key == nil { try await resources.registered(record, key: nil) }
        // Stored, or merged into the stored one.
        if let shape { try await shapes.learn(shape, bundleID: record.bundleID, attributesType: record.attributesType) }
        return record
    }
}
