import Foundation
import LiveActivity

/// The body of `POST /v1/updates` (the contract's `UpdateBatch`), which the contract has accepted, read into
/// the domain's batch items: each item is an update's or an end's body with its `activityId` and `event`;
/// and the batch's answer (the contract's `BatchAccepted`).
///
/// A batch is up to 1,000 items, so both are written for speed. An item of the common members only (its id,
/// event, content-state, priority or importance, collapse id, relevance score) is read straight from the
/// value the contract checked (``JSONValueDecodable``); any other is decoded as the contract's `BatchItem` (the
/// dates' and alerts' forms). The answer is written as its JSON value directly. Both are what the contract's generated types
/// give (`RequestBodyTests`, `SchemasTests`): the generic decoding and encoding of 500 items were 12% of the
/// server's CPU per batch.
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

    /// An item of the common members only, each in the form the contract gives it (null as absent), as the
    /// contract's `BatchItem`; nil for any other item.
    fileprivate static func direct(_ members: [String: JSONValue]) -> Schemas.BatchItem? {
        guard case .string(let activityID)? = members["activityId"], case .string(let eventName)? = members["event"],
            let event = Schemas.BatchItem.EventPayload(rawValue: eventName)
        else { return nil }
        var item = Schemas.BatchItem(activityId: activityID, event: event)
        for (key, value) in members where value != .null {
            switch (key, value) {
            case ("activityId", _), ("event", _): continue
            case ("contentState", .object): item.contentState = .init(value1: value)
            case ("priority", .number(let number)):
                guard let whole = Int(exactly: number), let priority = Schemas.Priority(rawValue: whole) else { return nil }
                item.priority = .init(value1: priority)
            case ("importance", .string(let name)):
                guard let importance = Schemas.Importance(rawValue: name) else { return nil }
                item.importance = .init(value1: importance)
            case ("collapseId", .string(let text)): item.collapseId = text
            case ("relevanceScore", .number(let number)): item.relevanceScore = number
            default: return nil
            }
        }
        return item
    }

    /// The 202 answer: each item's result at its position, a refusal with the status a single send would have
    /// had; as the contract's `BatchAccepted` (``Schemas/BatchAccepted/init(_:)``) writes it.
    static func answer(_ results: [PushService.BatchItemResult]) -> JSONValue {
        var accepted = 0
        var written = [JSONValue]()
        written.reserveCapacity(results.count)
        for (index, result) in results.enumerated() {
            var fields: [String: JSONValue] = ["index": .number(Double(index))]
            fields.reserveCapacity(6)
            switch result {
            case .accepted(let activityID, let pushID, let replaced, let downgrade):
                accepted += 1
                fields["activityId"] = .string(activityID)
                fields["status"] = .string("accepted")
                fields["pushId"] = .string(pushID.lowercased)
                if !replaced.isEmpty { fields["replaced"] = .array(replaced.map { .string($0.lowercased) }) }
                if let downgrade { fields["downgraded"] = .string(downgrade) }
            case .refused(let activityID, let refusal):
                let error = APIError(refusal)
                fields["activityId"] = .string(activityID)
                fields["status"] = .string("refused")
                var detail: [String: JSONValue] = [
                    "status": .number(Double(error.status.code)), "rule": .string(error.rule), "message": .string(error.message),
                ]
                if let field = error.field { detail["field"] = .string(field) }
                fields["error"] = .object(detail)
            }
            written.append(.object(fields))
        }
        return .object([
            "accepted": .number(Double(accepted)), "refused": .number(Double(results.count - accepted)), "results": .array(written),
        ])
    }
}

extension Schemas.BatchItem: JSONValueDecodable {
    /// Each item of a batch: read directly when it has only the common members, decoded otherwise.
    init(checked value: JSONValue) throws {
        if case .object(let members) = value, let item = PushBatchBody.direct(members) {
            self = item
        } else {
            self = try JSONValueDecoder.decodeGenerically(Self.self, from: value)
        }
    }
}
