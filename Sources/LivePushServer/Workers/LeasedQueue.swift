import Foundation
import Logging
import PushStore

/// One queue of leased work for a ``LeaseWorker``: outbox batches, group-send pages or webhook events.
/// The store's claim, renewal and release of its rows (one mechanism in `PushStore`), seen from a worker.
struct LeasedQueue: Sendable {
    /// What the queue holds, for logs ("pushes", "group pages", "webhook events").
    let name: String
    /// Claims the next unit of work for an owner; nil when nothing is due.
    let claim: @Sendable (_ owner: String) async throws(PushStoreError) -> LeasedWork?
    /// Gives back every claim an owner holds; returns how many.
    let release: @Sendable (_ owner: String) async throws(PushStoreError) -> Int
}

/// A claimed unit of work: what it is (for logs), how its claim is extended, and the work.
struct LeasedWork: Sendable {
    /// Writes what the work did (the claim ends with the record).
    typealias Recording = @Sendable () async -> Void

    /// Names the work in logs: the owner and the batch, page or events.
    let subject: Logger.Metadata
    /// Extends the claim to the date given; false once it is no longer held.
    let renew: @Sendable (Date) async throws(PushStoreError) -> Bool
    /// Sends what was claimed; returns the recording still to do, which the worker overlaps with its next
    /// claim and send (nil: the work recorded its outcomes itself, or has nothing to record).
    let run: @Sendable () async -> Recording?

    /// Work that sends, then returns its recording (a group page).
    init(
        subject: Logger.Metadata, renew: @escaping @Sendable (Date) async throws(PushStoreError) -> Bool,
        send: @escaping @Sendable () async -> Recording?
    ) {
        self.subject = subject
        self.renew = renew
        self.run = send
    }

    /// Work that sends and records in one step.
    init(
        subject: Logger.Metadata, renew: @escaping @Sendable (Date) async throws(PushStoreError) -> Bool,
        run: @escaping @Sendable () async -> Void
    ) {
        self.init(subject: subject, renew: renew) { () async -> Recording? in
            await run()
            return nil
        }
    }
}

extension LeasedQueue {
    /// A queue whose unit of work is a batch of rows claimed together (outbox pushes, webhook events): the
    /// batch's claim is renewed by its rows' ids, and `work` sends and records it.
    /// - Parameters:
    ///   - claim: the owner's next batch, empty when nothing is due.
    ///   - renew: extends the owner's claims on these ids; returns how many it still held.
    static func batches<Row: Sendable, ID: Sendable>(
        of name: String, id: @escaping @Sendable (Row) -> ID,
        claim: @escaping @Sendable (_ owner: String) async throws(PushStoreError) -> [Row],
        renew: @escaping @Sendable (_ owner: String, _ ids: [ID], _ until: Date) async throws(PushStoreError) -> Int,
        release: @escaping @Sendable (_ owner: String) async throws(PushStoreError) -> Int,
        work: @escaping @Sendable (_ owner: String, _ batch: [Row]) async -> Void
    ) -> LeasedQueue {
        LeasedQueue(name: name) { owner throws(PushStoreError) in
            let batch = try await claim(owner)
            guard !batch.isEmpty else { return nil }
            let ids = batch.map(id)
            return LeasedWork(subject: ["owner": "\(owner)", "queue": "\(name)", "count": "\(batch.count)"]) { until throws(PushStoreError) in
                try await renew(owner, ids, until) > 0
            } run: {
                await work(owner, batch)
            }
        } release: { owner throws(PushStoreError) in
            try await release(owner)
        }
    }
}
