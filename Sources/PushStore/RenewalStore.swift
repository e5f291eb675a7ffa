import Foundation

/// Renewals of long Live Activities: a plan per opted-in activity, and the links of a renewal chain.
package protocol RenewalStore: Sendable {
    /// Stores (or replaces) the plan of an activity that is waiting; due at `startedAt + renewBefore`.
    /// A renewal already started, renewed or failed is kept as it is. `notFound` when the activity is not stored.
    func planRenewal(_ plan: RenewalPlan) async throws(PushStoreError) -> RenewalRecord

    /// The renewal of an activity, if it opted in.
    func renewal(activityID: String) async throws(PushStoreError) -> RenewalRecord?

    /// The renewal a new activity took over from directly (its `renews` link), if any; older links of
    /// the chain name the newest activity too.
    func renewal(renewedBy activityID: String) async throws(PushStoreError) -> RenewalRecord?

    /// Waiting renewals of active activities due by `date`, oldest first.
    func dueRenewals(by date: Date) async throws(PushStoreError) -> [RenewalRecord]

    /// Renewals whose start was sent and whose new activity is not registered yet.
    func startingRenewals() async throws(PushStoreError) -> [RenewalRecord]

    /// A waiting renewal's start was sent to these push-to-start tokens. False when it was not waiting.
    func markRenewalStarting(activityID: String, tokenIDs: [UUID], at: Date) async throws(PushStoreError) -> Bool

    /// A waiting or starting renewal failed for `reason`; the event is stored in the same transaction.
    /// False when it was neither (already renewed or failed).
    func markRenewalFailed(activityID: String, reason: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError) -> Bool

    /// Links `newActivityID` as the renewal of `activityID` (whose start was sent): the new activity gets
    /// the old one's user and groups, and a plan of its own (the same attributes, alert and
    /// `renewBefore`), so the chain goes on; every activity that named the old one as `renewedBy` names
    /// the new one (a chain is one link deep). Nil when the renewal was not started or no longer open
    /// (waiting, already linked or failed), or when the new activity is in a chain already (no cycles).
    func linkRenewal(activityID: String, to newActivityID: String, at: Date, journal: WebhookJournal?) async throws(PushStoreError)
        -> RenewalRecord?
}
