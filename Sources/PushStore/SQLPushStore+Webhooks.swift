import Foundation

/// The ``WebhookOutbox`` operations.
extension SQLPushStore {
    package func enqueueWebhooks(_ deliveries: [WebhookDelivery]) async throws(PushStoreError) {
        try Self.validateWebhooks(deliveries)
        guard !deliveries.isEmpty else { return }
        let dialect = self.dialect
        try await run("enqueueWebhooks") { session throws(PushStoreError) in
            try await Self.insertWebhooks(session, dialect: dialect, deliveries)
        }
    }

    /// Stores the events `journal` makes of `facts` in the caller's transaction: they commit, or roll
    /// back, with the change they report.
    static func record(_ facts: [WebhookFact], in journal: WebhookJournal?, session: any SQLSession, dialect: SQLDialect)
        async throws(PushStoreError)
    {
        guard let journal, !facts.isEmpty else { return }
        let deliveries = journal.deliveries(for: facts)
        try validateWebhooks(deliveries)
        try await insertWebhooks(session, dialect: dialect, deliveries)
    }

    private static func validateWebhooks(_ deliveries: [WebhookDelivery]) throws(PushStoreError) {
        for (index, delivery) in deliveries.enumerated() {
            try Validation.identifier(delivery.event, field: "deliveries[\(index)].event", max: 64)
            guard delivery.attempts >= 0 else {
                throw .invalidInput(field: "deliveries[\(index)].attempts", rule: "is \(delivery.attempts); must be 0 or more")
            }
        }
    }

    private static func insertWebhooks(_ session: any SQLSession, dialect: SQLDialect, _ deliveries: [WebhookDelivery])
        async throws(PushStoreError)
    {
        guard !deliveries.isEmpty else { return }
        try await insertRows(
            session, dialect: dialect, table: "webhook_outbox",
            columns: ["id", "event", "body", "attempts", "created_at", "next_attempt_at", "last_error", "available_at"],
            items: deliveries
        ) { delivery in
            [
                .uuid(delivery.id), .text(delivery.event), .blob(delivery.body), .int(delivery.attempts),
                .date(delivery.createdAt), .date(delivery.nextAttemptAt), .text(delivery.lastError), .date(delivery.nextAttemptAt),
            ]
        }
    }

    package func claimWebhooks(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError)
        -> [WebhookDelivery]
    {
        try await claimRows(
            .webhooks, operation: "claimWebhooks", owner: owner, limit: limit, now: now, lease: lease, of: "events",
            decode: RowDecoding.webhookDelivery
        ) { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Locks the event and checks that `owner` holds its claim.
    private static func heldWebhook(_ session: any SQLSession, dialect: SQLDialect, id: UUID, owner: String)
        async throws(PushStoreError)
    {
        _ = try await LeasedRows.webhooks.held(
            session, dialect: dialect, [.uuid(id)], owner: owner, kind: .webhookEvent, noun: "webhook event", id: id.lowercased)
    }

    package func renewWebhooks(owner: String, ids: [UUID], until: Date) async throws(PushStoreError) -> Int {
        try await renewRows(.webhooks, operation: "renewWebhooks", owner: owner, ids: ids, until: until)
    }

    package func completeWebhook(id: UUID, owner: String) async throws(PushStoreError) {
        try Validation.identifier(owner, field: "owner")
        let dialect = self.dialect
        try await run("completeWebhook") { session throws(PushStoreError) in
            try await Self.heldWebhook(session, dialect: dialect, id: id, owner: owner)
            try await session.execute("DELETE FROM webhook_outbox WHERE id = ?", [.uuid(id)])
        }
    }

    package func rescheduleWebhook(id: UUID, owner: String, nextAttemptAt: Date, attempts: Int, lastError: String)
        async throws(PushStoreError)
    {
        try await rescheduleHeld(
            .webhooks, operation: "rescheduleWebhook", id: id, kind: .webhookEvent, noun: "webhook event", owner: owner, next: nextAttemptAt,
            attempts: attempts, lastError: lastError)
    }

    package func releaseWebhooks(owner: String) async throws(PushStoreError) -> Int {
        try await releaseAll(.webhooks, operation: "releaseWebhooks", owner: owner)
    }

    package func webhookDepth() async throws(PushStoreError) -> Int {
        try await depth(of: .webhooks, operation: "webhookDepth")
    }
}
