import Foundation

/// Audience starts: one record per accepted request (with its list of users), expanded page by page of
/// users when sent, like group sends (``GroupSendStore``): a page is never handed to two live claims, and
/// a page whose claimer died is claimable again when its lease ends.
package protocol AudienceStartStore: Sendable {
    /// Stores an accepted audience start and its users (durable when this returns). Throws `conflict` if
    /// its id is used. The users are distinct, valid ids (the domain checks each once, before).
    func createAudienceStart(_ start: AudienceStart) async throws(PushStoreError)

    /// The start with its progress (without its list of users).
    func audienceStart(id: UUID) async throws(PushStoreError) -> AudienceStart?

    /// Whether any user holds a valid push-to-start token for the type (of `bundleID`'s app, when given).
    func hasValidPushToStartTokens(attributesType: String, bundleID: String?) async throws(PushStoreError) -> Bool

    /// Claims the next page for `lease` seconds: a page whose claim expired, else the next up to
    /// `pageSize` users of the oldest start not yet expanded. Nil when there is no work.
    func claimAudiencePage(owner: String, pageSize: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> AudienceStartPage?

    /// Extends `owner`'s claim on the page to `until`; false when the page is no longer `owner`'s.
    func renewAudiencePage(_ page: AudienceStartPage, owner: String, until: Date) async throws(PushStoreError) -> Bool

    /// Records what a worker did with its page in one transaction: the history records, the retries, the
    /// tokens refused for good, the start's counts; and removes the page. Writes nothing when `owner` no
    /// longer holds the page.
    func completeAudiencePage(_ page: AudienceStartPage, owner: String, outcome: AudienceStartPageOutcome, at: Date, journal: WebhookJournal?)
        async throws(PushStoreError) -> AudienceStartPageReport

    /// Makes every audience page `owner` holds claimable at once; returns how many.
    func releaseAudiencePages(owner: String) async throws(PushStoreError) -> Int
}
