import Foundation

/// The claim and renewal of a page of a paged send (a group send, an audience start), one way for both.
extension SQLPushStore {
    /// Claims the next page of `sends` for `owner`: the claim is one short transaction (on PostgreSQL it
    /// holds the send's row lock while it cuts the range, `members` reading the send's members after a
    /// given one), and the page is read by `page` after it commits, outside it. `operations` name the two
    /// transactions. A read first asks whether there is any work: most polls find none, and then take no
    /// write transaction (work that comes due between the two is found by the next poll or wake-up).
    func claimSendPage<Send: Sendable, Page: Sendable>(
        of sends: PagedSends, operations: (claim: String, read: String), owner: String, pageSize: Int, now: Date, lease: TimeInterval,
        send decode: @escaping @Sendable (SQLRow) throws(PushStoreError) -> Send,
        members: @escaping @Sendable (any SQLSession, Send, _ after: String) async throws(PushStoreError) -> [String],
        page: @escaping @Sendable (any SQLSession, Send, _ first: String, _ last: String) async throws(PushStoreError) -> Page
    ) async throws(PushStoreError) -> Page? {
        let dialect = self.dialect
        let until = now.addingTimeInterval(lease)
        let due = try await run(operations.claim + "Due", readOnly: true) { session throws(PushStoreError) in
            try await sends.hasWork(session, now: now)
        }
        guard due else { return nil }
        let claimed = try await run(operations.claim, commit: .deferred) { session throws(PushStoreError) -> (Send, String, String)? in
            let page = try await sends.claim(session, dialect: dialect, owner: owner, now: now, until: until, pageSize: pageSize) {
                (row: SQLRow, next: String) async throws(PushStoreError) -> [String] in
                try await members(session, try decode(row), next)
            }
            guard let page else { return nil }
            return (try decode(page.send), page.first, page.last)
        }
        guard let (send, first, last) = claimed else { return nil }
        return try await run(operations.read, readOnly: true) { session throws(PushStoreError) in
            try await page(session, send, first, last)
        }
    }

    /// Extends `owner`'s claim on the page of `sends` starting at `firstID` to `until`; false once it no
    /// longer holds it.
    func renewSendPage(of sends: PagedSends, operation: String, sendID: UUID, firstID: String, owner: String, until: Date)
        async throws(PushStoreError) -> Bool
    {
        try Validation.identifier(owner, field: "owner")
        return try await run(operation, commit: .deferred) { session throws(PushStoreError) in
            try await sends.pages.renew(session, owner: owner, keys: [[.uuid(sendID), .text(firstID)]], until: until) > 0
        }
    }
}
