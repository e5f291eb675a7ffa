import Foundation
import LiveActivity

/// The body of `POST /v1/updates` (the contract's `UpdateBatch`), which the contract has accepted, read into
/// the domain's batch items: each item is an update's or an end's body with its `activityId` and `event`;
/// and the batch's answer (the contract's `BatchAccepted`).
///
/// A batch is up to 1,000 items, so both are written for speed. An item of the common members only (its id,
/// event, content-state, priority or importance, collapse id, relevance score) is read straight from the
/// value the contract checked; any other is decoded as the contract's `BatchItem` (the dates' and alerts'
/// forms). The answer is written as its JSON value directly. Both are what the contract's generated types
/// give (`RequestBodyTests`, `SchemasTests`): the generic decoding and encoding of 500 items were 12% of the
/// server's CPU per batch.
enum PushBatchBody {
    static let operation = ContractRoute("sendUpdates")

    /// A batch carries up to 1,000 content-states: more than a single send's 64 KiB.
    static let maximumBytes = 2 * 1024 * 1024

    /// The body as the contract checked it, taken whole (in O(1)) from the value parsed for the check.
    struct Checked: Decodable {
        var value: JSONValue

        init(from decoder: any Decoder) throws {
            value = try JSONValue(from: decoder)
        }
    }

    static func items(_ body: Checked, now: Date) throws(APIError) -> [PushService.BatchItem] {
        do {
            guard case .object(let members) = body.value, case .array(let updates)? = members["updates"] else {
                return try items(JSONValueDecoder.decode(Schemas.UpdateBatch.self, from: body.value), now: now)
            }
            return try updates.map { value in try item(contractItem(value), now: now) }
        } catch {
            // The contract accepted the body, and the type is generated from the contract: a defect of the server.
            throw APIError(
                .internalServerError, field: nil, rule: "contract",
                "a body the contract accepts does not decode as the contract's UpdateBatch: \(error); report this")
        }
    }

    static func items(_ body: Schemas.UpdateBatch, now: Date) -> [PushService.BatchItem] {
        body.updates.map { item($0, now: now) }
    }

    private static func item(_ item: Schemas.BatchItem, now: Date) -> PushService.BatchItem {
        PushService.BatchItem(
            kind: item.event == .end ? .end : .update, activityID: item.activityId, content: PushRequestBody(item).content(now: now))
    }

    /// One item as the contract's `BatchItem`: read directly when it has only the common members, each in the
    /// form the contract gives it (null as absent); decoded otherwise.
    static func contractItem(_ value: JSONValue) throws -> Schemas.BatchItem {
        if case .object(let members) = value, let item = direct(members) { return item }
        return try JSONValueDecoder.decode(Schemas.BatchItem.self, from: value)
    }

    private static func direct(_ members: [String: JSONValue]) -> Schemas.BatchItem? {
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
