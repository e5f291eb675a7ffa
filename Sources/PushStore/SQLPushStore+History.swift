import Foundation

/// The ``DeliveryHistory`` operations.
extension SQLPushStore {
    /// The activity's history rows and its pushes held in group page records, merged in the order of
    /// the rows (newest first); a push in both (an activity back in a group it left) is listed once.
    package func deliveries(activityID: String, limit: Int) async throws(PushStoreError) -> [DeliveryRecord] {
        try Validation.identifier(activityID, field: "activityId")
        let rows = try await deliveries(kind: "activity", id: activityID, limit: limit)
        let dialect = self.dialect
        let pagePushes = try await run("pagePushes", readOnly: true) { session throws(PushStoreError) in
            try await Self.pagePushes(session, activityID: activityID, limit: limit, dialect: dialect)
        }
        guard !pagePushes.isEmpty else { return rows }
        var seen = Set<UUID>()
        let merged = (rows + pagePushes).filter { seen.insert($0.pushID).inserted }.sorted { a, b in
            if a.acceptedAt != b.acceptedAt { return a.acceptedAt > b.acceptedAt }
            if a.recordedAt != b.recordedAt { return a.recordedAt > b.recordedAt }
            return a.pushID.lowercased > b.pushID.lowercased
        }
        return Array(merged.prefix(limit))
    }

    package func deliveries(channelID: UUID, limit: Int) async throws(PushStoreError) -> [DeliveryRecord] {
        try await deliveries(kind: "channel", id: channelID.lowercased, limit: limit)
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
