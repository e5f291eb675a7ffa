import Foundation

/// The ``DeliveryHistory`` operations.
extension SQLPushStore {
    package func deliveries(activityID: String, limit: Int) async throws(PushStoreError) -> [DeliveryRecord] {
        try Validation.identifier(activityID, field: "activityId")
        return try await deliveries(kind: "activity", id: activityID, limit: limit)
    }

    package func deliveries(channelID: UUID, limit: Int) async throws(PushStoreError) -> [DeliveryRecord] {
        try await deliveries(kind: "channel", id: channelID.uuidString.lowercased(), limit: limit)
    }

    private func deliveries(kind: String, id: String, limit: Int) async throws(PushStoreError) -> [DeliveryRecord] {
        guard (1...10_000).contains(limit) else {
            throw .invalidInput(field: "limit", rule: "is \(limit); ask for 1 to 10000 records")
        }
        return try await run("deliveries", readOnly: true) { session throws(PushStoreError) in
            var records = [DeliveryRecord]()
            for row in try await session.query(
                """
                SELECT * FROM deliveries WHERE target_kind = ? AND target_id = ?
                ORDER BY accepted_at DESC, recorded_at DESC, push_id DESC LIMIT ?
                """, [.text(kind), .text(id), .int(limit)])
            {
                records.append(try RowDecoding.delivery(row))
            }
            return records
        }
    }
}
