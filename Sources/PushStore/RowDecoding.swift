import APNsCore
import Foundation
import LiveActivity

/// Turns stored rows back into records, and records into column values.
enum RowDecoding {
    static func token(_ row: SQLRow, _ column: String) throws(PushStoreError) -> DeviceToken {
        let hex = try row.string(column)
        do {
            return try DeviceToken(hex: hex)
        } catch {
            throw .database(detail: "column '\(column)' holds a malformed token: \(error.description)")
        }
    }

    static func tokenState(_ row: SQLRow) throws(PushStoreError) -> TokenState {
        switch try row.string("token_state") {
        case "valid": return .valid
        case "invalid":
            return .invalid(
                reason: try row.optionalString("token_invalid_reason") ?? "",
                at: try row.date("token_invalidated_at"))
        case let other: throw .database(detail: "column 'token_state' holds '\(other)'")
        }
    }

    static func groupsJSON(_ groups: [String]) -> String {
        if groups.isEmpty { return "[]" }
        // LiveActivity's writer, not Foundation's JSONEncoder: a registration writes this text, and the
        // encoder cost 5% of the SQLite writer's time under a registration load.
        return JSONValue.array(Set(groups).sorted().map { .string($0) }).description
    }

    /// The `groups_json` column: a JSON array of strings (most often empty, read for every activity).
    static func groups(_ text: String) throws(PushStoreError) -> [String] {
        if text == "[]" { return [] }
        if case .array(let items)? = try? JSONValue.parse(text) {
            var groups = [String]()
            groups.reserveCapacity(items.count)
            for item in items {
                guard case .string(let name) = item else { break }
                groups.append(name)
            }
            if groups.count == items.count { return groups }
        }
        throw .database(detail: "column 'groups_json' holds '\(text)', not a JSON array of strings")
    }

    /// The columns ``activity(_:)`` reads, the content-state as NULL: for the readers that never use it.
    static let activityColumnsWithoutContentState = activityColumnsWithoutContentState(of: "")

    /// ``activityColumnsWithoutContentState`` of the table named `table` in a join (`"a."`).
    static func activityColumnsWithoutContentState(of table: String) -> String {
        let columns = [
            "activity_id", "push_token", "bundle_id", "attributes_type", "environment", "user_id", "groups_json", "frequent_pushes", "state",
            "token_state", "token_invalid_reason", "token_invalidated_at", "registered_at", "updated_at", "started_at", "ended_at",
            "dismissal_date", "last_timestamp", "last_accepted_at",
        ]
        return columns.map { table.isEmpty ? $0 : "\(table)\($0) AS \($0)" }.joined(separator: ", ") + ", NULL AS last_content_state"
    }

    static func activity(_ row: SQLRow) throws(PushStoreError) -> ActivityRecord {
        let groups = try Self.groups(try row.string("groups_json"))
        var contentState: JSONValue?
        if let text = try row.optionalString("last_content_state") {
            do {
                contentState = try JSONValue.parse(text)
            } catch {
                throw .database(detail: "column 'last_content_state' is not JSON: \(error.description)")
            }
        }
        return ActivityRecord(
            activityID: try row.string("activity_id"),
            pushToken: try token(row, "push_token"),
            bundleID: try row.string("bundle_id"),
            attributesType: try row.string("attributes_type"),
            environment: try row.enumValue("environment", as: APNsEnvironment.self),
            userID: try row.optionalString("user_id"),
            groups: groups,
            frequentPushesEnabled: try row.bool("frequent_pushes"),
            state: try row.enumValue("state", as: ActivityState.self),
            tokenState: try tokenState(row),
            registeredAt: try row.date("registered_at"),
            updatedAt: try row.date("updated_at"),
            startedAt: try row.date("started_at"),
            endedAt: try row.optionalDate("ended_at"),
            dismissalDate: try row.optionalDate("dismissal_date"),
            lastContentState: contentState,
            lastTimestamp: try row.optionalDate("last_timestamp"),
            lastAcceptedAt: try row.optionalDate("last_accepted_at")
        )
    }

    static func pushToStart(_ row: SQLRow) throws(PushStoreError) -> PushToStartTokenRecord {
        PushToStartTokenRecord(
            id: try row.uuid("id"),
            userID: try row.string("user_id"),
            deviceID: try row.string("device_id"),
            bundleID: try row.string("bundle_id"),
            attributesType: try row.string("attributes_type"),
            environment: try row.enumValue("environment", as: APNsEnvironment.self),
            token: try token(row, "token"),
            tokenState: try tokenState(row),
            updatedAt: try row.date("updated_at"),
            source: try row.optionalEnumValue("source", as: PushToStartTokenSource.self),
            refreshedAt: try row.optionalDate("refreshed_at")
        )
    }

    static func targetColumns(_ target: OutboxTarget) -> (kind: String, id: String) {
        switch target {
        case .activity(let id): return ("activity", id)
        case .pushToStartToken(let id): return ("pushToStartToken", id.lowercased)
        case .channel(let id): return ("channel", id.lowercased)
        }
    }

    static func target(_ row: SQLRow) throws(PushStoreError) -> OutboxTarget {
        let id = try row.string("target_id")
        switch try row.string("target_kind") {
        case "activity": return .activity(id: id)
        case "pushToStartToken":
            guard let uuid = UUID(canonical: id) else { throw .database(detail: "target_id '\(id)' is not a UUID") }
            return .pushToStartToken(id: uuid)
        case "channel":
            guard let uuid = UUID(canonical: id) else { throw .database(detail: "target_id '\(id)' is not a UUID") }
            return .channel(id: uuid)
        case let other: throw .database(detail: "column 'target_kind' holds '\(other)'")
        }
    }

    static func priority(_ row: SQLRow, _ column: String) throws(PushStoreError) -> APNsPriority {
        let raw = try row.int(column)
        guard let priority = APNsPriority(rawValue: raw) else {
            throw .database(detail: "column '\(column)' holds \(raw), not an APNs priority")
        }
        return priority
    }

    static let outboxColumns = [
        "push_id", "target_kind", "target_id", "kind", "payload", "priority", "requested_priority", "importance",
        "downgrade_reason", "collapse_key", "expiration", "accepted_at", "attempts", "next_attempt_at",
        "claim_owner", "claim_until", "last_error", "available_at", "send_id",
    ]

    /// Column values of a new (unclaimed) item.
    static func outboxValues(_ item: OutboxItem) -> [SQLValue] {
        let target = targetColumns(item.target)
        return [
            .uuid(item.pushID), .text(target.kind), .text(target.id), .text(item.kind.rawValue), .blob(item.payload),
            .int(item.priority.rawValue), .int(item.requestedPriority.rawValue), .text(item.importance.rawValue),
            .text(item.downgradeReason), .text(item.collapseKey), .date(item.expiration), .date(item.acceptedAt),
            .int(item.attempts), .date(item.nextAttemptAt), .text(item.claim?.owner), .date(item.claim?.until),
            .text(item.lastError), .date(item.nextAttemptAt), .uuid(item.sendID),
        ]
    }

    static func outboxItem(_ row: SQLRow) throws(PushStoreError) -> OutboxItem {
        var claim: OutboxClaim?
        if let owner = try row.optionalString("claim_owner") {
            claim = OutboxClaim(owner: owner, until: try row.date("claim_until"))
        }
        return OutboxItem(
            pushID: try row.uuid("push_id"),
            target: try target(row),
            kind: try row.enumValue("kind", as: LiveActivityEvent.self),
            payload: try row.data("payload"),
            priority: try priority(row, "priority"),
            requestedPriority: try priority(row, "requested_priority"),
            importance: try row.enumValue("importance", as: PushImportance.self),
            downgradeReason: try row.optionalString("downgrade_reason"),
            collapseKey: try row.optionalString("collapse_key"),
            expiration: try row.optionalDate("expiration"),
            acceptedAt: try row.date("accepted_at"),
            attempts: try row.int("attempts"),
            nextAttemptAt: try row.date("next_attempt_at"),
            claim: claim,
            lastError: try row.optionalString("last_error"),
            sendID: try row.optionalUUID("send_id")
        )
    }

    static let deliveryColumns = [
        "push_id", "target_kind", "target_id", "kind", "accepted_at", "sent_at", "priority", "requested_priority",
        "downgrade_reason", "apns_id", "status", "reason", "attempts", "outcome", "coalesced_into", "recorded_at", "send_id",
        "apns_unique_id",
    ]

    static func deliveryValues(_ record: DeliveryRecord) -> [SQLValue] {
        let target = targetColumns(record.target)
        return [
            .uuid(record.pushID), .text(target.kind), .text(target.id), .text(record.kind.rawValue),
            .date(record.acceptedAt), .date(record.sentAt), .int(record.priority.rawValue),
            .int(record.requestedPriority.rawValue), .text(record.downgradeReason), .text(record.apnsID),
            .int(record.status), .text(record.reason), .int(record.attempts), .text(record.outcome.rawValue),
            .uuid(record.coalescedInto), .date(record.recordedAt), .uuid(record.sendID), .text(record.apnsUniqueID),
        ]
    }

    static func delivery(_ row: SQLRow) throws(PushStoreError) -> DeliveryRecord {
        DeliveryRecord(
            pushID: try row.uuid("push_id"),
            target: try target(row),
            kind: try row.enumValue("kind", as: LiveActivityEvent.self),
            acceptedAt: try row.date("accepted_at"),
            sentAt: try row.optionalDate("sent_at"),
            priority: try priority(row, "priority"),
            requestedPriority: try priority(row, "requested_priority"),
            downgradeReason: try row.optionalString("downgrade_reason"),
            apnsID: try row.optionalString("apns_id"),
            status: try row.optionalInt("status"),
            reason: try row.optionalString("reason"),
            attempts: try row.int("attempts"),
            outcome: try row.enumValue("outcome", as: DeliveryOutcome.self),
            coalescedInto: try row.optionalUUID("coalesced_into"),
            recordedAt: try row.date("recorded_at"),
            sendID: try row.optionalUUID("send_id"),
            apnsUniqueID: try row.optionalString("apns_unique_id")
        )
    }

    static func apiKey(_ row: SQLRow) throws(PushStoreError) -> APIKeyRecord {
        APIKeyRecord(
            id: try row.uuid("id"),
            name: try row.string("name"),
            scope: try row.enumValue("scope", as: APIKeyScope.self),
            sha256Hash: try row.string("sha256_hash"),
            createdAt: try row.date("created_at"),
            revokedAt: try row.optionalDate("revoked_at")
        )
    }

    static func idempotencyRecord(_ row: SQLRow) throws(PushStoreError) -> IdempotencyRecord {
        let body: Data?
        if case .null = try row.value("response_body") { body = nil } else { body = try row.data("response_body") }
        return IdempotencyRecord(
            owner: try row.string("owner"),
            key: try row.string("idempotency_key"),
            requestHash: try row.string("request_hash"),
            reservedAt: try row.date("reserved_at"),
            status: try row.optionalInt("status"),
            responseBody: body,
            completedAt: try row.optionalDate("completed_at")
        )
    }

    static func webhookDelivery(_ row: SQLRow) throws(PushStoreError) -> WebhookDelivery {
        WebhookDelivery(
            id: try row.uuid("id"),
            event: try row.string("event"),
            body: try row.data("body"),
            attempts: try row.int("attempts"),
            createdAt: try row.date("created_at"),
            nextAttemptAt: try row.date("next_attempt_at"),
            lastError: try row.optionalString("last_error")
        )
    }

    static func groupSend(_ row: SQLRow) throws(PushStoreError) -> GroupSend {
        GroupSend(
            sendID: try row.uuid("send_id"),
            groupID: try row.string("group_id"),
            kind: try row.enumValue("kind", as: LiveActivityEvent.self),
            template: try SendTemplate(row),
            dismissalDate: try row.optionalDate("dismissal_date"),
            acceptedAt: try row.date("accepted_at"),
            createdBy: try row.string("created_by"),
            progress: GroupSendProgress(targeted: try row.int("targeted")),
            expanded: try row.bool("expanded")
        )
    }

    static func channel(_ row: SQLRow) throws(PushStoreError) -> ChannelRecord {
        ChannelRecord(
            id: try row.uuid("id"),
            name: try row.string("name"),
            bundleID: try row.string("bundle_id"),
            apnsChannelID: try row.string("apns_channel_id"),
            storagePolicy: try row.int("storage_policy"),
            groupID: try row.optionalString("group_id"),
            createdAt: try row.date("created_at"),
            deletedAt: try row.optionalDate("deleted_at")
        )
    }
}
