import Foundation

/// Group sends: one record per accepted request, expanded page by page when sent. Several processes may
/// share one PostgreSQL store: a page is never handed to two live claims, and a page whose claimer died
/// is claimable again when its lease ends (or at once when its owner starts again and releases it).
package protocol GroupSendStore: Sendable {
    /// Stores an accepted group send (durable when this returns). Throws `conflict` if its id is used.
    func createGroupSend(_ send: GroupSend) async throws(PushStoreError)

    func groupSend(id: UUID) async throws(PushStoreError) -> GroupSend?

    /// Whether any activity is registered in the group.
    func groupHasMembers(_ group: String) async throws(PushStoreError) -> Bool

    /// Claims the next page for `lease` seconds: a page whose claim expired, else the next up to
    /// `pageSize` members of the oldest send not yet expanded. Sends with no members left are marked
    /// expanded (and finished when nothing of them is pending). Nil when there is no work.
    func claimPage(owner: String, pageSize: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> GroupSendPage?

    /// Extends `owner`'s claim on the page to `until` (a worker still sending it); false when the page is
    /// no longer `owner`'s (taken over after its lease ended, or completed).
    func renewPage(_ page: GroupSendPage, owner: String, until: Date) async throws(PushStoreError) -> Bool

    /// Records what a worker did with its page in one transaction: the history records, the retries (into
    /// the outbox), the content state and ends of the activities, the send's progress; and removes the
    /// page. Writes nothing when `owner` no longer holds the page. With a `journal`, the `activity.ended`
    /// events of the ends are stored in the same transaction.
    func completePage(_ page: GroupSendPage, owner: String, outcome: GroupSendPageOutcome, at: Date, journal: WebhookJournal?)
        async throws(PushStoreError) -> GroupSendPageReport

    /// Makes every page `owner` holds claimable at once (a graceful stop, or a restart under the same
    /// owner); returns how many.
    func releasePages(owner: String) async throws(PushStoreError) -> Int
}
