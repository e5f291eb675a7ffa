import Foundation
import PushStore

// The contract's answers to send requests, made from the domain's values: ids as lowercase UUIDs (each
// push id is also the push's `apns-id`), states and kinds as the contract's values of the same name.

extension Schemas.Accepted {
    /// The 202 answer of a send request: a skipped target under the key that names its kind.
    init(_ acceptance: SendAcceptance) {
        self.init(
            pushIds: acceptance.pushIDs.map(\.lowercased),
            coalesced: acceptance.coalesced.map { CoalescedPayloadPayload(replaced: $0.replaced.lowercased, by: $0.by.lowercased) },
            downgraded: acceptance.downgraded.map { DowngradedPayloadPayload(pushId: $0.pushID.lowercased, reason: $0.reason) },
            skipped: acceptance.skipped.map { skipped in
                switch skipped.target {
                case .activity(let activityID): SkippedPayloadPayload(activityId: activityID, reason: skipped.reason)
                case .pushToStartToken(let id): SkippedPayloadPayload(pushToStartTokenId: id.lowercased, reason: skipped.reason)
                }
            })
    }
}

extension Schemas.GroupSend {
    /// A group send (the 202 answer of a group send and `GET /v1/sends/{sendId}`) and how far it has come.
    init(_ status: GroupSendStatus) throws(APIError) {
        let progress = status.progress
        self.init(
            sendId: status.sendID.lowercased, groupId: status.groupID, kind: try contractValue(status.kind, "kind"),
            state: try contractValue(status.state, "state"), acceptedAt: status.acceptedAt, finishedAt: status.finishedAt,
            counts: CountsPayload(
                targeted: progress.targeted, sent: progress.sent, failed: progress.failed, downgraded: progress.downgraded,
                coalesced: progress.coalesced, skipped: progress.skipped, retrying: progress.retrying, pending: status.pending),
            broadcastPushIds: status.broadcastPushIDs.map(\.lowercased))
    }
}

extension Schemas.RenewalStatus {
    /// An activity's renewal as `GET /v1/activities/{activityId}` shows it: the plan, how far it got, why it
    /// failed, and the links of the chain (`renews`: the activity this one took over from; `renewedBy`: the
    /// one that took over from it); nil when the activity neither opted in nor renews another.
    init?(_ record: RenewalRecord?, renews: String?) throws(APIError) {
        guard record != nil || renews != nil else { return nil }
        self.init(
            state: try record.map { (record) throws(APIError) in try contractValue(record.state, "renewal.state") },
            renewBefore: record.map { RenewalRequest.describe($0.plan.renewBefore) }, renewAt: record?.renewAt, reason: record?.reason,
            startedAt: record?.startedAt, finishedAt: record?.finishedAt, renews: renews, renewedBy: record?.renewedBy)
    }
}

extension Schemas.BatchAccepted {
    /// The 202 answer of `POST /v1/updates`: each item's result at its position, a refusal with the status a
    /// single send would have had. The route writes it as its JSON directly (``PushBatchBody/answer(_:)``,
    /// which `SchemasTests` checks against this).
    init(_ results: [PushService.BatchItemResult]) {
        var accepted = 0
        let items = results.enumerated().map { index, result -> Schemas.BatchItemResult in
            switch result {
            case .accepted(let activityID, let pushID, let replaced, let downgrade):
                accepted += 1
                return Schemas.BatchItemResult(
                    index: index, activityId: activityID, status: .accepted, pushId: pushID.lowercased,
                    replaced: replaced.isEmpty ? nil : replaced.map(\.lowercased), downgraded: downgrade)
            case .refused(let activityID, let refusal):
                let error = APIError(refusal)
                return Schemas.BatchItemResult(
                    index: index, activityId: activityID, status: .refused,
                    error: .init(status: Int(error.status.code), field: error.field, rule: error.rule, message: error.message))
            }
        }
        self.init(accepted: accepted, refused: results.count - accepted, results: items)
    }
}

extension Schemas.GroupSend {
    /// An audience start (the 202 answer of `POST /v1/starts` and `GET /v1/sends/{sendId}`) and how far it
    /// has come.
    init(_ status: AudienceStartStatus) throws(APIError) {
        let progress = status.progress
        self.init(
            sendId: status.sendID.lowercased,
            audience: AudiencePayload(
                attributesType: status.attributesType, everyone: status.userCount == nil, userCount: status.userCount,
                inputPushChannel: status.channelID?.lowercased),
            kind: .start, state: try contractValue(status.state, "state"), acceptedAt: status.acceptedAt, finishedAt: status.finishedAt,
            counts: CountsPayload(
                targeted: progress.targeted, sent: progress.sent, failed: progress.failed, downgraded: 0, coalesced: 0, skipped: progress.skipped,
                retrying: progress.retrying, pending: status.pending, noToken: progress.noToken, budget: progress.budget),
            broadcastPushIds: [])
    }
}

extension Schemas.GroupSend {
    /// A send of either kind as the contract's `GroupSend`: a group send, or an audience start.
    init(_ status: SendStatus) throws(APIError) {
        switch status {
        case .group(let group): try self.init(group)
        case .audience(let start): try self.init(start)
        }
    }
}
