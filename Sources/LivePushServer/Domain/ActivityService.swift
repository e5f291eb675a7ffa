import APNsCore
import Foundation
import Logging
import PushStore

/// What the app reports about its activities, and what the backend reads back: registration, token
/// rotation, push-to-start tokens, ends and dismissals the app saw, and an activity with its history.
struct ActivityService: Sendable {
    let store: any PushStore
    let settings: ActivitySettings
    let clock: any WallClock
    let logger: Logger
    let events: any DomainEvents

    /// Registers (or re-registers) an activity and its update token, for the actor's user: an app token
    /// registers for its user only, and never over another user's activity, and puts it only in groups
    /// the credential grants (`grant`).
    func register(_ registration: ActivityRegistration, as actor: AppActor, grant: GroupGrant) async throws(DomainError) -> ActivityRecord {
        var owned = registration
        owned.userID = try actor.owner(claimed: registration.userID)
        try grant.check(registration.groups)
        let ownership = actor.registrationOwnership
        // The same answer whether the id was taken long ago or a moment ago by a racing request.
        let taken = DomainError.conflict(
            "activityId", "taken",
            "activity id '\(registration.activityID)' is registered by another user or installation; ActivityKit gives every activity its own id: register this activity's `id`"
        )
        let record = try await arrive(owned, ifTaken: { $0 == .pushToStartToken ? Self.tokenHeld("pushToken") : taken }) {
            [store] (stamped) async throws(PushStoreError) in
            try await store.register(stamped, ownership: ownership)
        }
        // Debug, not info: one line per registration was 3% of the server's CPU under a registration load
        // (stderr unbuffered, a write each); `livepush_store_duration_seconds` counts them.
        logger.debug("activity registered", metadata: ["activityId": "\(record.activityID)", "token": "\(record.pushToken.shortened)"])
        return record
    }

    /// The activity's new update token (ActivityKit rotated it).
    func rotateToken(activityID: String, to token: DeviceToken, as actor: AppActor) async throws(DomainError) -> ActivityRecord {
        try await checkOwnership(activityID: activityID, actor)
        let now = clock.now()
        let record: ActivityRecord
        do {
            record = try await store.rotateToken(activityID: activityID, newToken: token, at: now)
        } catch .taken {
            throw Self.tokenHeld("pushToken")
        } catch {
            throw DomainError(error)
        }
        logger.debug("activity token rotated", metadata: ["activityId": "\(activityID)", "token": "\(token.shortened)"])
        return record
    }

    /// Stores (or replaces) a device's push-to-start token, for the actor's user.
    func storePushToStartToken(_ registration: PushToStartRegistration, as actor: AppActor) async throws(DomainError) -> PushToStartTokenRecord {
        var owned = registration
        guard let user = try actor.owner(claimed: registration.userID.isEmpty ? nil : registration.userID) else {
            throw .invalid("userId", "required", "'userId' is required with a development app key (an app token gives it)")
        }
        owned.userID = user
        let record = try await arrive(owned, ifTaken: { _ in Self.tokenHeld("token") }) { [store] (stamped) async throws(PushStoreError) in
            try await store.upsertPushToStartToken(stamped)
        }
        logger.debug("push-to-start token stored", metadata: ["userId": "\(record.userID)", "token": "\(record.token.shortened)"])
        return record
    }

    /// The user's push-to-start tokens of one device are deleted (the app signs out, or hands the device
    /// over): another user may then store the same token values. Returns how many were released.
    func releasePushToStartTokens(deviceID: String, as actor: AppActor) async throws(DomainError) -> Int {
        guard let user = try actor.owner(claimed: nil) else {
            throw .forbidden(
                "Authorization", "userToken",
                "release push-to-start tokens with the user's token (or the installation's); a development key acts for no one user")
        }
        let released = try await stored { () async throws(PushStoreError) in
            try await store.releasePushToStartTokens(userID: user, deviceID: deviceID)
        }
        logger.info("push-to-start tokens released", metadata: ["userId": "\(user)", "count": "\(released)"])
        return released
    }

    /// 404 when the activity is not stored or is another user's (the same answer, so that no credential
    /// learns which ids exist).
    private func checkOwnership(activityID: String, _ actor: AppActor) async throws(DomainError) {
        if case .installer = actor { throw AppActor.installerRefusal }
        let activity = try await stored { () async throws(PushStoreError) in try await store.activity(id: activityID) }
        guard let activity, actor.owns(activity) else {
            throw .notFound("activityId", "no activity '\(activityID)' is registered for this credential; register it with POST /v1/activities")
        }
    }

    /// A token value another user holds, as a push-to-start token or as an activity's update token: one
    /// value has one holder across both kinds (otherwise that user's pushes would reach this user's
    /// device). The holder is never named.
    static func tokenHeld(_ field: String) -> DomainError {
        .conflict(
            field, "heldByAnotherUser",
            "this token value is stored for another user (as a push-to-start token or an activity's update token); it moves once that user's app releases it when signing out (DELETE /v1/push-to-start-tokens/{deviceId}) or the backend signs that user out (POST /v1/users/{userId}/sign-out)"
        )
    }

    /// Checks a registration's environment, stamps it with the time it arrived and stores it.
    /// The store's `taken` (the id or token value is another owner's) is answered with `taken(kind)`.
    private func arrive<Registration: Arriving, Record: Sendable>(
        _ registration: Registration, ifTaken taken: (PushStoreRecordKind) -> DomainError,
        _ write: (Registration) async throws(PushStoreError) -> Record
    ) async throws(DomainError) -> Record {
        try checkEnvironment(registration.environment)
        var stamped = registration
        stamped.at = clock.now()
        do {
            return try await write(stamped)
        } catch .taken(let kind, _) {
            throw taken(kind)
        } catch {
            throw DomainError(error)
        }
    }

    /// The app saw its activity end (ActivityKit `.ended`); it leaves the Lock Screen at `dismissalDate`.
    func endedByApp(activityID: String, dismissalDate: Date?, as actor: AppActor) async throws(DomainError) -> ActivityRecord {
        try await checkOwnership(activityID: activityID, actor)
        let now = clock.now()
        let dismissal = dismissalDate ?? now.addingTimeInterval(settings.defaultDismissalDelay)
        return try await reportEnd(activityID: activityID) { (journal) async throws(PushStoreError) in
            try await store.markEnded(activityID: activityID, at: now, dismissalDate: dismissal, journal: journal)
        }
    }

    /// The app saw its activity dismissed (ActivityKit `.dismissed`).
    func dismissedByApp(activityID: String, as actor: AppActor) async throws(DomainError) -> ActivityRecord {
        try await checkOwnership(activityID: activityID, actor)
        let now = clock.now()
        return try await reportEnd(activityID: activityID) { (journal) async throws(PushStoreError) in
            try await store.markDismissed(activityID: activityID, at: now, journal: journal)
        }
    }

    /// An activity, its newest deliveries and the pushes still waiting.
    func detail(activityID: String) async throws(DomainError) -> (activity: ActivityRecord, deliveries: [DeliveryRecord], pending: [OutboxItem]) {
        guard let activity = try await stored({ () async throws(PushStoreError) in try await store.activity(id: activityID) }) else {
            throw .notFound("activityId", "no activity '\(activityID)' is registered")
        }
        let limit = settings.historyLimit
        let deliveries = try await stored { () async throws(PushStoreError) in try await store.deliveries(activityID: activityID, limit: limit) }
        let pending = try await stored { () async throws(PushStoreError) in try await store.pendingItems(activityID: activityID) }
        return (activity, deliveries, pending)
    }

    /// Runs an end or dismissal change with the webhook's journal (the `activity.ended` event is stored in
    /// the change's transaction when this call took the activity out of `active`), then wakes the webhook.
    private func reportEnd(
        activityID: String, _ change: (WebhookJournal?) async throws(PushStoreError) -> ActivityStateChange
    ) async throws(DomainError) -> ActivityRecord {
        let result: ActivityStateChange
        do {
            result = try await change(events.journal(endCause: .app))
        } catch .notFound {
            throw .notFound("activityId", "no activity '\(activityID)' is registered")
        } catch {
            throw DomainError(error)
        }
        if result.endedNow { events.committed(1) }
        return result.activity
    }

    /// Tokens of the other APNs environment would be refused with BadDeviceToken.
    private func checkEnvironment(_ environment: APNsEnvironment) throws(DomainError) {
        if let accepted = settings.environment, accepted != environment {
            throw .invalid(
                "environment", "serverEnvironment",
                "this server sends to APNs \(accepted.rawValue); a \(environment.rawValue) token would be refused with BadDeviceToken")
        }
    }
}

/// What the app registers: for one APNs environment, stamped with the time it arrives.
protocol Arriving: Sendable {
    var environment: APNsEnvironment { get }
    var at: Date { get set }
}

extension ActivityRegistration: Arriving {}
extension PushToStartRegistration: Arriving {}
