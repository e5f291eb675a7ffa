import Foundation
import LiveActivity
import PushStore

// The contract's answers for Live Activities kept as resources.

extension Schemas.LiveActivityOutcome {
    init(_ answer: LiveActivityResourceService.Answer) throws(APIError) {
        self.init(
            userId: answer.resource.userID, key: answer.resource.key, outcome: try contractValue(answer.outcome, "outcome"),
            reason: answer.reason, message: answer.message, state: try contractValue(answer.resource.state, "state"),
            activityId: answer.resource.activityID, pushIds: answer.pushIDs.map(\.lowercased))
    }
}

extension Schemas.LiveActivityResource {
    init(_ record: LiveActivityResourceRecord, history: [LiveActivityResourceEvent]) throws(APIError) {
        let wanted = WantedLiveActivity(record)
        self.init(
            userId: record.userID, key: record.key, attributesType: record.attributesType,
            attributes: record.attributes, state: try contractValue(record.state, "state"),
            contentState: wanted.contentState, pending: record.pending, activityId: record.activityID,
            activityIds: record.activityIDs, reason: record.reason, renewBefore: record.renewBefore.map(RenewalRequest.describe),
            history: try history.map { (event) throws(APIError) in
                Schemas.LiveActivityStep(
                    outcome: event.outcome, at: event.at, reason: event.reason, activityId: event.activityID,
                    contentState: event.contentState)
            },
            createdAt: record.createdAt, updatedAt: record.updatedAt)
    }
}
