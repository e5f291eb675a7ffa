import Foundation

/// What group pages and audience pages record alike when a worker is done with one: the page's claim row
/// taken away (only while the worker holds it), the final outcomes as history rows and the retries as
/// outbox rows.
extension PagedSends {
    /// Checks a page's retries (each a valid outbox item once its claim is cleared) before the transaction,
    /// and returns the page's records with their reasons shortened to what the history keeps.
    static func checkedRecords(_ records: [DeliveryRecord], retries: [OutboxItem], owner: String) throws(PushStoreError)
        -> [DeliveryRecord]
    {
        try Validation.identifier(owner, field: "owner")
        try Validation.batch(retries, field: "retries", pushID: \.pushID) { item, field throws(PushStoreError) in
            var unclaimed = item
            unclaimed.claim = nil
            try Validation.outboxItem(unclaimed, field: field)
        }
        return records.map { record in
            var shortened = record
            shortened.reason = record.reason.map { DeliveryResult.shortened($0) }
            return shortened
        }
    }

    /// Deletes the page's claim row if `owner` still holds it; false (and nothing done) when another worker
    /// took the page over after the lease ended.
    func finish(_ session: any SQLSession, sendID: UUID, firstID: String, owner: String) async throws(PushStoreError) -> Bool {
        try await !session.query(
            "DELETE FROM \(pages.table) WHERE send_id = ? AND first_id = ? AND claim_owner = ? RETURNING first_id",
            [.uuid(sendID), .text(firstID), .text(owner)]
        ).isEmpty
    }

    /// Writes a page's records and retries. Push ids are derived from the send and the target: a page sent
    /// twice records each push once.
    static func insertOutcomes(_ session: any SQLSession, dialect: SQLDialect, records: [DeliveryRecord], retries: [OutboxItem])
        async throws(PushStoreError)
    {
        try await SQLPushStore.insertRows(
            session, dialect: dialect, table: "deliveries", columns: RowDecoding.deliveryColumns,
            items: records, suffix: " ON CONFLICT DO NOTHING", values: RowDecoding.deliveryValues)
        try await SQLPushStore.insertRows(
            session, dialect: dialect, table: "outbox", columns: RowDecoding.outboxColumns,
            items: retries, suffix: " ON CONFLICT DO NOTHING", values: RowDecoding.outboxValues)
    }
}
