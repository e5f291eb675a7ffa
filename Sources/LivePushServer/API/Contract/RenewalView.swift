import Foundation
import PushStore

/// An activity's renewal as `GET /v1/activities/{activityId}` shows it: the plan, how far it got, why
/// it failed, and the links of the chain (`renews`: the activity this one took over from; `renewedBy`:
/// the one that took over from it).
package struct RenewalView: Codable, Sendable, Hashable {
    package var state: String?
    package var renewBefore: String?
    package var renewAt: Date?
    package var reason: String?
    package var startedAt: Date?
    package var finishedAt: Date?
    package var renews: String?
    package var renewedBy: String?

    init?(_ record: RenewalRecord?, renews: String?) {
        guard record != nil || renews != nil else { return nil }
        state = record?.state.rawValue
        renewBefore = record.map { RenewalRequest.describe($0.plan.renewBefore) }
        renewAt = record?.renewAt
        reason = record?.reason
        startedAt = record?.startedAt
        finishedAt = record?.finishedAt
        self.renews = renews
        renewedBy = record?.renewedBy
    }
}
