import Foundation
import LiveActivity

/// Everything one send writes, for ``AcceptanceStore/accept(_:)``: the priority-10 budget its activities
/// spend, the pushes (made once the budget has decided), the content-states the activities now hold and,
/// for ends, the activities it ends.
package struct Acceptance: Sendable {
    /// An activity that takes a content-state with this send.
    package struct StateChange: Sendable {
        package var activityID: String
        /// The push's timestamp: an activity holding a newer one keeps its state.
        package var timestamp: Date
        /// nil: an end without a final state (the stored state stays, the timestamp is recorded).
        package var contentState: JSONValue?

        package init(activityID: String, timestamp: Date, contentState: JSONValue?) {
            self.activityID = activityID
            self.timestamp = timestamp
            self.contentState = contentState
        }
    }

    /// An activity this send ends.
    package struct End: Sendable {
        package var activityID: String
        package var dismissalDate: Date

        package init(activityID: String, dismissalDate: Date) {
            self.activityID = activityID
            self.dismissalDate = dismissalDate
        }
    }

    /// When the send was accepted.
    package var at: Date
    /// The activities asking for priority 10 and their hourly limits (distinct ids).
    package var budget: [(activityID: String, limit: Int)]
    /// Makes the pushes from the budget's decisions (keyed by activity id; empty without a budget).
    package var pushes: @Sendable ([String: BudgetDecision]) -> [OutboxItem]
    package var stateChanges: [StateChange]
    package var ends: [End]
    /// Where the ends' `activity.ended` events are stored, in the same transaction.
    package var journal: WebhookJournal?

    package init(
        at: Date, budget: [(activityID: String, limit: Int)] = [], stateChanges: [StateChange] = [], ends: [End] = [],
        journal: WebhookJournal? = nil, pushes: @escaping @Sendable ([String: BudgetDecision]) -> [OutboxItem]
    ) {
        self.at = at
        self.budget = budget
        self.pushes = pushes
        self.stateChanges = stateChanges
        self.ends = ends
        self.journal = journal
    }
}

/// What ``AcceptanceStore/accept(_:)`` stored.
package struct AcceptanceOutcome: Sendable {
    /// The pushes as enqueued, in the order ``Acceptance/pushes`` made them.
    package var pushes: [OutboxItem]
    package var enqueued: EnqueueResult
    /// The ids of the activities this send took out of `active`, in the order of ``Acceptance/ends``.
    package var ended: [String]

    package init(pushes: [OutboxItem], enqueued: EnqueueResult, ended: [String]) {
        self.pushes = pushes
        self.enqueued = enqueued
        self.ended = ended
    }
}

/// A send's acceptance as one transaction.
package protocol AcceptanceStore: Sendable {
    /// Counts the budget, enqueues the pushes (coalescing as ``OutboxStore/enqueue(_:)``), records the
    /// content-states (as ``ActivityStore/recordContentState(_:contentState:acceptedAt:)``) and the ends
    /// (as ``ActivityStore/markEnded(activityIDs:at:dismissalDate:journal:)``), all in one transaction:
    /// all or nothing, durable when this returns. One commit per send, where it used to be three.
    func accept(_ acceptance: Acceptance) async throws(PushStoreError) -> AcceptanceOutcome
}
