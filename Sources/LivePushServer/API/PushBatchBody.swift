import Foundation
import LiveActivity

/// The body of `POST /v1/updates` (the contract's `UpdateBatch`), which the contract has accepted, read into
/// the domain's batch items: each item is an update's or an end's body with its `activityId` and `event`.
enum PushBatchBody {
    static let operation = ContractRoute("sendUpdates")

    /// A batch carries up to 1,000 content-states: more than a single send's 64 KiB.
    static let maximumBytes = 2 * 1024 * 1024

    static func parse(_ body: JSONBody, now: Date) throws(APIError) -> [PushService.BatchItem] {
        let items = try body.required("updates") { body.fields[$0]?.arrayValue }
        var batch: [PushService.BatchItem] = []
        batch.reserveCapacity(items.count)
        for item in items {
            let fields = JSONBody(fields: item.objectValue ?? [:])
            let kind: LiveActivityEvent = try fields.required("event", fields.string) == "end" ? .end : .update
            batch.append(
                PushService.BatchItem(
                    kind: kind, activityID: try fields.required("activityId", fields.string),
                    content: try PushRequestBody.parse(fields, kind: kind, now: now)))
        }
        return batch
    }
}
