import Foundation

/// Where a page of activities starts and what it holds: activities ordered by id, after `cursor`,
/// all of them, those of one user, of one group, or of one user in one group (an index serves each).
package struct ActivityPageQuery: Sendable, Hashable {
    package var userID: String?
    package var groupID: String?
    /// The last id of the previous page; nil for the first page.
    package var after: String?
    package var limit: Int

    package init(userID: String? = nil, groupID: String? = nil, after: String? = nil, limit: Int) {
        self.userID = userID
        self.groupID = groupID
        self.after = after
        self.limit = limit
    }
}

/// Where a page of group sends starts: the send after which (newest first) the page begins.
package struct GroupSendCursor: Sendable, Hashable {
    package var acceptedAt: Date
    package var sendID: UUID

    package init(acceptedAt: Date, sendID: UUID) {
        self.acceptedAt = acceptedAt
        self.sendID = sendID
    }
}

/// How many delivery records of one outcome and reason were written in a window.
package struct DeliveryTally: Sendable, Hashable {
    package var outcome: DeliveryOutcome
    /// The APNs reason (or the store's short explanation); nil when there was none.
    package var reason: String?
    package var count: Int
    /// Of `count`, the pushes sent at priority 5 although 10 was asked for.
    package var downgraded: Int
}

/// The leases one claimer holds on one queue: how many rows, and until when.
package struct LeaseHolding: Sendable, Hashable {
    /// The leased queues.
    package enum Queue: String, Sendable, Hashable, CaseIterable {
        case outbox, groupPages, webhooks
    }

    package var queue: Queue
    /// The claimer, as the server names it: `<instance id>-w<n>` for a delivery worker, `<instance
    /// id>-webhook` for the webhook.
    package var owner: String
    package var rows: Int
    /// The latest end of its leases.
    package var until: Date
}

/// A broadcast channel with its newest broadcasts: those still waiting in the outbox and those done.
package struct ChannelBroadcasts: Sendable, Hashable {
    package var channel: ChannelRecord
    /// Oldest first.
    package var pending: [OutboxItem]
    /// Newest first.
    package var deliveries: [DeliveryRecord]
}

/// What the provider console reads (and the one thing it writes: which pushes it sent). Each list is
/// paged with a cursor and read through an index, so a page costs the same with a million activities.
package protocol ConsoleStore: Sendable {
    /// What `--database` names this store by, for messages that send a person to it: a SQLite file's
    /// path as given, a PostgreSQL URL without its password.
    var location: String { get }

    /// Up to `limit` activities (1 to 500) ordered by id, after the cursor: all, a user's, a group's, or a user's in a group.
    func activityPage(_ query: ActivityPageQuery) async throws(PushStoreError) -> [ActivityRecord]

    /// Up to `limit` group sends (1 to 500), newest first, older than the cursor; with their counts.
    func groupSendPage(before cursor: GroupSendCursor?, limit: Int) async throws(PushStoreError) -> [GroupSend]

    /// Up to `limit` audience starts (1 to 500), newest first, older than the cursor; with their
    /// progress (and without their lists of users). The console lists them with the group sends.
    func audienceStartPage(before cursor: GroupSendCursor?, limit: Int) async throws(PushStoreError) -> [AudienceStart]

    /// The delivery records written at or after `since`, counted by outcome and reason.
    func deliveryTallies(since: Date) async throws(PushStoreError) -> [DeliveryTally]

    /// Group sends not yet handed out to the workers in full.
    func openGroupSendCount() async throws(PushStoreError) -> Int

    /// The channels that are not deleted, counted by bundle id.
    func channelCounts() async throws(PushStoreError) -> [String: Int]

    /// Priority-10 pushes recorded for the activity after `after` (its budget's window).
    func priority10Count(activityID: String, after: Date) async throws(PushStoreError) -> Int

    /// Records that the console sent these pushes, and who did (the operator credential's name).
    func recordConsolePushes(_ pushIDs: [UUID], sentBy: String, at: Date) async throws(PushStoreError)

    /// Of `pushIDs`, those the console sent.
    func consolePushes(among pushIDs: [UUID]) async throws(PushStoreError) -> Set<UUID>

    /// The leases held at `now` on the outbox, the group pages and the webhook events, by claimer
    /// (expired leases are not held: their rows are due again).
    func leaseHoldings(now: Date) async throws(PushStoreError) -> [LeaseHolding]

    /// The newest `channels` live channels (1 to 500), newest first, each with its waiting broadcasts
    /// and its newest `perChannel` done ones (1 to 50).
    func recentBroadcasts(channels: Int, perChannel: Int) async throws(PushStoreError) -> [ChannelBroadcasts]

    /// The `minutes` minutes from `since` (1 to 1,440), oldest first, each with its outcomes counted and
    /// the acceptance-to-outcome latencies of its pushes: from the history records and the page records
    /// of group sends, by when they were written (`deliveries_recorded`, `group_send_page_records_recorded`).
    func deliverySeries(since: Date, minutes: Int) async throws(PushStoreError) -> [DeliveryMinute]

    /// A group send's members that failed or were skipped, at most `limit` of each (1 to 500), read
    /// through the group's members (a member that left the group since is not listed); nil for an unknown send.
    func groupSendMembers(sendID: UUID, limit: Int) async throws(PushStoreError) -> GroupSendMembers?

    /// When the activity's current token arrived: its last rotation (when it replaced the one before),
    /// else the activity's first registration; nil for an unknown activity.
    func currentTokenSince(activityID: String) async throws(PushStoreError) -> Date?
}
