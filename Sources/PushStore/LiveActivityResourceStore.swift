import Foundation
import LiveActivity

/// Where a Live Activity kept as a resource (`PUT /v1/users/{userId}/live-activities/{key}`) is.
package enum LiveActivityResourceState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Its push-to-start was sent; the app has not registered the activity it began yet.
    case starting
    /// An activity runs for it (`activityID`).
    case active
    /// Ended while its start waited for the app: the activity is ended as soon as the app registers it.
    case ending
    /// Ended by `DELETE` (or its activity ended and no later PUT started another).
    case ended
    /// Its last start could not be made (`reason`).
    case refused
}

/// One resource: a user's Live Activity under the backend's key, what the backend wants it to show, and
/// the activities it has had.
package struct LiveActivityResourceRecord: Sendable, Hashable {
    package var userID: String
    package var key: String
    package var attributesType: String
    /// The static attributes its activities are started with.
    package var attributes: JSONValue
    /// What the device should show, as the backend last asked: `contentState`, and `alert`, `staleDate`
    /// (seconds since 1970), `relevanceScore` when given.
    package var wanted: JSONValue
    package var state: LiveActivityResourceState
    /// The activity that runs for it (the newest of a renewal chain), once the app registered it.
    package var activityID: String?
    /// Every activity it has had, oldest first.
    package var activityIDs: [String] = []
    /// `wanted` has not reached the device yet (it changed while the start waited for the app).
    package var pending: Bool = false
    /// Why it was refused (`noPushToStartToken`, `pushToStartBudget`, `contentStateShape`, ...).
    package var reason: String?
    /// Opted into renewal past 8 hours: its activities are renewed this long after they start.
    package var renewBefore: TimeInterval?
    /// The push-to-start tokens its last start went to, and when it was sent.
    package var startTokenIDs: [UUID] = []
    package var startedAt: Date?
    /// For `ending`: the final content-state and dismissal date of the end sent on arrival.
    package var finalContentState: JSONValue?
    package var dismissalDate: Date?
    /// Raised by every write; a write names the version it read (compare-and-set).
    package var version: Int = 0
    package var createdAt: Date
    package var updatedAt: Date

    package init(
        userID: String, key: String, attributesType: String, attributes: JSONValue, wanted: JSONValue, state: LiveActivityResourceState,
        createdAt: Date
    ) {
        self.userID = userID
        self.key = key
        self.attributesType = attributesType
        self.attributes = attributes
        self.wanted = wanted
        self.state = state
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }
}

/// One step of a resource's history.
package struct LiveActivityResourceEvent: Sendable, Hashable {
    /// `started`, `updated`, `queued`, `refused`, `registered`, `delivered`, `ended`, `renewed`.
    package var outcome: String
    package var at: Date
    package var reason: String?
    package var activityID: String?
    package var contentState: JSONValue?

    package init(outcome: String, at: Date, reason: String? = nil, activityID: String? = nil, contentState: JSONValue? = nil) {
        self.outcome = outcome
        self.at = at
        self.reason = reason
        self.activityID = activityID
        self.contentState = contentState
    }
}

/// Live Activities as resources: one record per user and key, written compare-and-set, with its history.
package protocol LiveActivityResourceStore: Sendable {
    /// The user's resource under `key`, if any.
    func liveActivityResource(userID: String, key: String) async throws(PushStoreError) -> LiveActivityResourceRecord?

    /// Writes `record` if the stored one is still at `expectedVersion` (nil: none is stored yet), with its
    /// version raised by one, and appends `event` to its history (the newest `historyLimit` are kept); the
    /// webhook's `facts` are stored in the same transaction. Nil (and nothing written) when another write
    /// came first.
    func saveLiveActivityResource(
        _ record: LiveActivityResourceRecord, expectedVersion: Int?, event: LiveActivityResourceEvent, facts: [WebhookFact],
        journal: WebhookJournal?
    ) async throws(PushStoreError) -> LiveActivityResourceRecord?

    /// The user's resources of `attributesType` whose start waits for the app (`starting` or `ending`),
    /// oldest start first.
    func waitingLiveActivityResources(userID: String, attributesType: String) async throws(PushStoreError) -> [LiveActivityResourceRecord]

    /// A resource's history, newest first.
    func liveActivityResourceHistory(userID: String, key: String, limit: Int) async throws(PushStoreError) -> [LiveActivityResourceEvent]
}

extension LiveActivityResourceStore {
    /// The newest steps kept per resource.
    package static var historyLimit: Int { 50 }
}
