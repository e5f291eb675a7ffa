import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore

/// Renewal of long Live Activities past the 8-hour limit: an opted-in activity gets a successor started
/// by push-to-start (same attributes, latest content-state, `input-push-token`) once it is `renewBefore`
/// old; when the app registers that successor it is linked (same user and groups, its own renewal plan,
/// the chain kept in both records), further updates go to it, and the old one is ended. A start that
/// cannot be made or fails leaves the old activity updating until its limit, and says why (webhook
/// `activity.renewalFailed`, the activity's `renewal`).
///
/// It sends through the push service and works with that service's store, settings, clock, log
/// and events.
struct RenewalService: Sendable {
    let pushes: PushService

    // MARK: Registration

    /// Checks a registration's renewal fields before it is stored: a plan needs the registration's
    /// user, and `renews` names an active activity of the same user and type whose renewal the server
    /// started and is still open (or that this very activity already took over). The registering
    /// activity, if stored, must be active and in no chain yet: a link never closes a cycle.
    func check(_ registration: ActivityRegistration, plan: RenewalRequest?, renews: String?, owner: String?) async throws(DomainError) {
        if plan != nil, owner == nil {
            throw .invalid(
                "renewal", "userRequired",
                "a renewal starts the new activity for the activity's user: register it with a user (userId or a user token)")
        }
        guard let renews else { return }
        // 409, not 404: the request is well formed and its target is the registration itself; what it
        // names is not an activity this one can take over (the same answer for another user's: no leak).
        let missing = DomainError.conflict(
            "renews", "exists", "no activity '\(renews)' is registered for this user; renews names the activity this one takes over from")
        guard renews != registration.activityID else {
            throw .conflict("renews", "self", "an activity cannot renew itself; renews names the activity this one takes over from")
        }
        guard let old = try await stored({ () async throws(PushStoreError) in try await pushes.store.activity(id: renews) }), old.userID != nil,
            old.userID == owner
        else { throw missing }
        guard old.attributesType == registration.attributesType else {
            throw .conflict("renews", "attributesType", "activity '\(renews)' is a '\(old.attributesType)'; its renewal is one too")
        }
        let renewal = try await stored { () async throws(PushStoreError) in try await pushes.store.renewal(activityID: renews) }
        switch renewal?.state {
        case .starting: break
        case .renewed where renewal?.renewedBy == registration.activityID: return
        case .waiting:
            throw .conflict(
                "renews", "open",
                "the renewal of activity '\(renews)' was not started: the server starts it by push-to-start once the activity is renewBefore old; register this one without renews"
            )
        case .renewed:
            throw .conflict("renews", "open", "activity '\(renews)' was renewed by another activity already")
        case .failed:
            throw .conflict(
                "renews", "open", "the renewal of activity '\(renews)' failed (\(renewal?.reason ?? "")); register this one without renews")
        case nil:
            throw .conflict("renews", "open", "activity '\(renews)' has no renewal: register it with a renewal object first")
        }
        guard old.state == .active else {
            throw .conflict("renews", "open", "activity '\(renews)' has ended; only an active activity whose renewal was started is taken over")
        }
        try await checkNotLinked(registration.activityID, renews: renews)
    }

    /// 409 when the registering activity is already stored and ended, or already in a chain (taken over,
    /// or the successor of another activity): linking it would end a live chain or close a cycle.
    private func checkNotLinked(_ activityID: String, renews: String) async throws(DomainError) {
        let store = pushes.store
        guard let existing = try await stored({ () async throws(PushStoreError) in try await store.activity(id: activityID) }) else { return }
        let own = try await stored { () async throws(PushStoreError) in try await store.renewal(activityID: activityID) }
        let previous = try await stored { () async throws(PushStoreError) in try await store.renewal(renewedBy: activityID) }
        guard existing.state == .active, own?.state != .renewed, previous == nil else {
            throw .conflict(
                "renews", "chain",
                "activity '\(activityID)' has ended or is already in a renewal chain; a renewal is a new activity (register the one the start began)")
        }
    }

    /// After a registration is stored: links it to the renewal it answers (named by `renews`, or, when
    /// `linkImplicitly`, the one start sent to this user for this type and not answered yet), then stores
    /// its own plan. True when it linked one.
    @discardableResult
    func registered(_ record: ActivityRecord, plan: RenewalRequest?, renews: String?, linkImplicitly: Bool = true) async throws(DomainError)
        -> Bool
    {
        var linked = false
        if renews != nil || linkImplicitly, let old = try await renewalAnswered(by: record, renews: renews) {
            await link(old, to: record)
            linked = true
        }
        if let plan, let user = record.userID {
            let stored = try await stored { () async throws(PushStoreError) in
                try await pushes.store.planRenewal(
                    RenewalPlan(
                        activityID: record.activityID, userID: user, attributesType: record.attributesType, renewBefore: plan.renewBefore,
                        attributes: plan.attributes, alert: plan.alert))
            }
            pushes.logger.info("activity renewal planned", metadata: ["activityId": "\(record.activityID)", "renewAt": "\(stored.renewAt)"])
        }
        return linked
    }

    /// The open renewal `record` takes over: the one `renews` names, else the oldest start sent to the
    /// record's user for its type before it was registered (the server links by the start it sent).
    private func renewalAnswered(by record: ActivityRecord, renews: String?) async throws(DomainError) -> RenewalRecord? {
        if let renews {
            return try await stored { () async throws(PushStoreError) in try await pushes.store.renewal(activityID: renews) }
                .flatMap { $0.state == .starting ? $0 : nil }
        }
        guard let user = record.userID else { return nil }
        let ownRenewal = try await stored { () async throws(PushStoreError) in try await pushes.store.renewal(activityID: record.activityID) }
        let alreadyLinked = try await stored { () async throws(PushStoreError) in try await pushes.store.renewal(renewedBy: record.activityID) }
        guard ownRenewal == nil, alreadyLinked == nil else { return nil }
        let starting = try await stored { () async throws(PushStoreError) in try await pushes.store.startingRenewals() }
        return starting.first {
            $0.plan.userID == user && $0.plan.attributesType == record.attributesType && $0.activityID != record.activityID
                && ($0.startedAt ?? .distantFuture) <= record.registeredAt
        }
    }

    /// Links `new` to `renewal`, ends the old activity, and sends the new one what the old one got after
    /// the start was sent (so that no update is lost between the start and the registration).
    private func link(_ renewal: RenewalRecord, to new: ActivityRecord) async {
        let now = pushes.clock.now()
        do {
            let journal = pushes.events.journal(endCause: .renewed)
            guard let linked = try await pushes.store.linkRenewal(activityID: renewal.activityID, to: new.activityID, at: now, journal: journal)
            else {
                return
            }
            pushes.events.committed(1)
            pushes.logger.info("activity renewed", metadata: ["activityId": "\(linked.activityID)", "renewedBy": "\(new.activityID)"])
            guard let old = try await pushes.store.activity(id: renewal.activityID) else { return }
            if let state = old.lastContentState, let accepted = old.lastAcceptedAt, accepted > (linked.startedAt ?? .distantPast) {
                _ = try await pushes.send(
                    .update, toActivity: new.activityID, PushContent(contentState: state, requestedPriority: .conservesPower, importance: .routine))
            }
            _ = try await pushes.endRenewed(old)
        } catch {
            pushes.logger.error("linking a renewal failed", metadata: ["activityId": "\(renewal.activityID)", "error": "\(error)"])
        }
    }

    // MARK: The sweep

    /// Starts the renewals due by now, and fails those whose start every device refused for good.
    @discardableResult
    func sweep() async -> (started: Int, failed: Int) {
        let now = pushes.clock.now()
        var started = 0
        var failed = 0
        do {
            for renewal in try await pushes.store.dueRenewals(by: now) {
                if await start(renewal, now: now) { started += 1 } else { failed += 1 }
            }
            for renewal in try await pushes.store.startingRenewals() where await refusedEverywhere(renewal, now: now) {
                failed += 1
            }
        } catch {
            pushes.logger.error("renewal sweep failed", metadata: ["error": "\(error)"])
        }
        return (started, failed)
    }

    /// The activity reached its limit: a renewal still open failed (its start was never answered by a
    /// registration: the device dropped it, e.g. over its push-to-start budget, or the app did not report it).
    func reachedLimit(_ activity: ActivityRecord) async {
        await fail(activity.activityID, reason: "notRegistered", now: pushes.clock.now())
    }

    /// Sends the start of a due renewal; false when it failed at once (no token, budget).
    private func start(_ renewal: RenewalRecord, now: Date) async -> Bool {
        do {
            guard let activity = try await pushes.store.activity(id: renewal.activityID), activity.state == .active else { return false }
            let tokens = try await pushes.store.pushToStartTokens(forUser: renewal.plan.userID, attributesType: renewal.plan.attributesType)
                .filter { $0.tokenState.isValid && $0.bundleID == activity.bundleID && $0.environment == activity.environment }
            guard !tokens.isEmpty else {
                await fail(renewal.activityID, reason: "noPushToStartToken", now: now)
                return false
            }
            let within = try await pushes.reserveStartBudget(tokens, now: now)
            guard !within.isEmpty else {
                await fail(renewal.activityID, reason: "pushToStartBudget", now: now)
                return false
            }
            if activity.lastContentState == nil {
                // The app started it with a state the server never saw: the successor starts empty, which
                // an app whose ContentState has required fields drops (a registered shape would refuse it).
                pushes.logger.warning(
                    "renewing an activity the server never sent a content-state; its successor starts with an empty one",
                    metadata: ["activityId": "\(activity.activityID)"])
            }
            let content = PushContent(
                contentState: activity.lastContentState ?? .object([:]), requestedPriority: .immediate, importance: .timeSensitive,
                alert: LiveActivityAlert(stored: renewal.plan.alert),
                expiration: now.addingTimeInterval(RenewalRequest.margin), collapseID: "renewal-" + String(activity.activityID.prefix(56)),
                attributesType: renewal.plan.attributesType, attributes: renewal.plan.attributes, inputPushToken: true)
            // Marked first: the app may register the new activity before this call returns.
            guard try await pushes.store.markRenewalStarting(activityID: renewal.activityID, tokenIDs: within.map(\.token.id), at: now) else {
                await pushes.releaseStartBudget(within)
                return false
            }
            do {
                _ = try await pushes.startRenewal(content, starts: within)
            } catch {
                await pushes.releaseStartBudget(within)
                throw error
            }
            pushes.logger.info("activity renewal started", metadata: ["activityId": "\(renewal.activityID)", "devices": "\(within.count)"])
            return true
        } catch {
            pushes.logger.error("starting a renewal failed", metadata: ["activityId": "\(renewal.activityID)", "error": "\(error)"])
            // A last content-state the app's (since changed) ContentState shape refuses: the device would drop the start.
            let undecodable = (error as? DomainError)?.kind == .undecodable
            await fail(renewal.activityID, reason: undecodable ? "contentStateUndecodable" : "startRefused", now: now)
            return false
        }
    }

    /// True (and the renewal failed with APNs' reason) when every token the start went to was refused
    /// for good (410 `Unregistered`, `ExpiredToken`, 400 `BadDeviceToken`).
    private func refusedEverywhere(_ renewal: RenewalRecord, now: Date) async -> Bool {
        var reasons: [String] = []
        for id in renewal.startTokenIDs {
            guard let token = try? await pushes.store.pushToStartToken(id: id) else { return false }
            guard case .invalid(let reason, let at) = token.tokenState, at >= (renewal.startedAt ?? .distantPast) else { return false }
            reasons.append(reason)
        }
        guard let reason = reasons.first else { return false }
        await fail(renewal.activityID, reason: reason, now: now)
        return true
    }

    /// Records the failure of a renewal still open (the store leaves a linked or failed one as it is).
    private func fail(_ activityID: String, reason: String, now: Date) async {
        do {
            guard
                try await pushes.store.markRenewalFailed(
                    activityID: activityID, reason: reason, at: now, journal: pushes.events.journal(endCause: .renewed))
            else { return }
            pushes.events.committed(1)
            pushes.logger.warning(
                "activity renewal failed; the activity keeps its updates until its limit",
                metadata: ["activityId": "\(activityID)", "reason": "\(reason)"])
        } catch {
            pushes.logger.error("recording a failed renewal failed", metadata: ["activityId": "\(activityID)", "error": "\(error)"])
        }
    }

    // MARK: Reads

    /// The activity's renewal and the one it took over from, for the activity's detail.
    func links(of activityID: String) async throws(DomainError) -> (renewal: RenewalRecord?, renews: String?) {
        let renewal = try await stored { () async throws(PushStoreError) in try await pushes.store.renewal(activityID: activityID) }
        let previous = try await stored { () async throws(PushStoreError) in try await pushes.store.renewal(renewedBy: activityID) }
        return (renewal, renewal?.plan.renews ?? previous?.activityID)
    }
}
