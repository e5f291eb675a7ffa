import Foundation
import LiveActivity

/// The body of `POST /v1/updates` (the contract's `UpdateBatch`), which the contract has accepted, read into
/// the domain's batch items: each item is an update's or an end's body with its `activityId` and `event`.
enum PushBatchBody {
    static let operation = ContractRoute("sendUpdates")

    /// A batch carries up to 1,000 content-states: more than a single send's 64 KiB.
    static let maximumBytes = 2 * 1024 * 1024

    static func items(_ body: Schemas.UpdateBatch, now: Date) -> [PushService.BatchItem] {
        body.updates.map { item in
            PushService.BatchItem(
                kind: item.event == .end ? .end : .update, activityID: item.activityId, content: PushRequestBody(item).content(now: now))
        }
    }
}
