import APNsCore
import Foundation

/// A change a webhook event reports, as the store sees it in the transaction that makes it.
package enum WebhookFact: Sendable, Hashable {
    /// The activity left `active` (ended or dismissed).
    case activityEnded(activityID: String, userID: String?, at: Date)
    /// The activity's current token was refused by APNs for good.
    case activityTokenInvalid(activityID: String, userID: String?, token: DeviceToken, reason: String, at: Date)
    /// A push-to-start token was refused by APNs for good.
    case pushToStartTokenInvalid(tokenID: UUID, userID: String?, token: DeviceToken, reason: String, at: Date)
    /// A new activity took over from `activityID` (its renewal was linked).
    case activityRenewed(activityID: String, userID: String?, renewedBy: String, at: Date)
    /// The renewal of `activityID` failed for `reason`; the activity keeps its updates until its limit.
    case renewalFailed(activityID: String, userID: String?, reason: String, at: Date)
    /// A Live Activity kept as a resource (the user's, under `key`) could not be started, for `reason`.
    case liveActivityNotStarted(userID: String, key: String, reason: String, at: Date)
}

/// Turns the facts of a store operation into webhook outbox rows, which the operation inserts in its own
/// transaction (the transactional outbox pattern): an event is stored if and only if the change it
/// reports commits, so a crash between the two cannot lose it. The server builds it (it owns the
/// events' JSON); nil where no webhook is configured, and then nothing is stored.
package struct WebhookJournal: Sendable {
    private let rows: @Sendable ([WebhookFact]) -> [WebhookDelivery]

    package init(_ rows: @escaping @Sendable ([WebhookFact]) -> [WebhookDelivery]) {
        self.rows = rows
    }

    /// The outbox rows for `facts` (none for none).
    package func deliveries(for facts: [WebhookFact]) -> [WebhookDelivery] {
        facts.isEmpty ? [] : rows(facts)
    }
}

// The operations without a journal: nothing is reported (tools, tests, a server without a webhook).
extension ActivityStore {
    package func markEnded(activityID: String, at: Date, dismissalDate: Date?) async throws(PushStoreError) -> ActivityStateChange {
        try await markEnded(activityID: activityID, at: at, dismissalDate: dismissalDate, journal: nil)
    }

    package func markEnded(activityIDs: [String], at: Date, dismissalDate: Date?) async throws(PushStoreError) -> [String] {
        try await markEnded(activityIDs: activityIDs, at: at, dismissalDate: dismissalDate, journal: nil)
    }

    package func markDismissed(activityID: String, at: Date) async throws(PushStoreError) -> ActivityStateChange {
        try await markDismissed(activityID: activityID, at: at, journal: nil)
    }

    package func markTokenInvalid(token: DeviceToken, reason: String, at: Date) async throws(PushStoreError) -> ActivityRecord? {
        try await markTokenInvalid(token: token, reason: reason, at: at, journal: nil)
    }
}

extension PushToStartStore {
    package func markPushToStartTokenInvalid(token: DeviceToken, reason: String, at: Date)
        async throws(PushStoreError) -> [PushToStartTokenRecord]
    {
        try await markPushToStartTokenInvalid(token: token, reason: reason, at: at, journal: nil)
    }
}

extension GroupSendStore {
    package func completePage(_ page: GroupSendPage, owner: String, outcome: GroupSendPageOutcome, at: Date)
        async throws(PushStoreError) -> GroupSendPageReport
    {
        try await completePage(page, owner: owner, outcome: outcome, at: at, journal: nil)
    }
}
