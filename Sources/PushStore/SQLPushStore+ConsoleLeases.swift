import Foundation

/// Who holds which leases, for the console's overview: one grouped read per leased queue, through the
/// claim-owner index of each (`outbox_claim_owner`, `group_send_pages_owner`; the webhook queue is small).
extension SQLPushStore {
    package func leaseHoldings(now: Date) async throws(PushStoreError) -> [LeaseHolding] {
        let queues: [(LeaseHolding.Queue, LeasedRows)] = [(.outbox, .outbox), (.groupPages, .groupPages), (.webhooks, .webhooks)]
        return try await run("leaseHoldings", readOnly: true) { session throws(PushStoreError) in
            var holdings = [LeaseHolding]()
            for (queue, rows) in queues {
                for row in try await session.query(
                    """
                    SELECT claim_owner, COUNT(*) AS n, MAX(claim_until) AS until FROM \(rows.table)
                    WHERE claim_owner IS NOT NULL AND claim_until > ? GROUP BY claim_owner ORDER BY claim_owner
                    """, [.date(now)])
                {
                    holdings.append(
                        LeaseHolding(queue: queue, owner: try row.string("claim_owner"), rows: try row.int("n"), until: try row.date("until")))
                }
            }
            return holdings
        }
    }
}
