import PushStore

/// Where the domain's changes are reported (the webhook, in the server). The events are not sent here:
/// the store operation that makes a change stores its events in the same transaction (a
/// ``WebhookJournal``), so that an event exists if and only if its change committed, even across a crash.
protocol DomainEvents: Sendable {
    /// The journal for a store operation that may end activities (for `cause`) or invalidate tokens;
    /// nil when nothing is reported (no webhook).
    func journal(endCause: WebhookEvent.EndCause) -> WebhookJournal?

    /// The journal for a store operation that may invalidate tokens; nil when nothing is reported.
    var tokenJournal: WebhookJournal? { get }

    /// Says that a change which stored `count` events committed: wakes the webhook to deliver them.
    func committed(_ count: Int)
}
