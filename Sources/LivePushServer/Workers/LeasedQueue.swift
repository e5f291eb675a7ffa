import Foundation
import Logging
import PushStore

/// One queue of leased work for a ``LeaseWorker``: outbox batches, group-send pages or webhook events.
/// The store's claim, renewal and release of its rows (one mechanism in `PushStore`), seen from a worker.
/// The lease worker knows only this protocol; each queue knows what its work does, so the dependency goes
/// one way: a Service makes its queues and hands them to its lease workers, which call them.
protocol LeasedQueue: Sendable {
    /// What the queue holds, for logs ("pushes", "group pages", "webhook events").
    var name: String { get }
    /// The announcements that may bring it work: a worker that found it empty asks again after one.
    var announcedAs: OutboxSignal.Work { get }
    /// Claims the next unit of work for an owner; nil when nothing is due.
    func claim(owner: String) async throws(PushStoreError) -> (any LeasedWork)?
    /// Gives back every claim an owner holds; returns how many.
    func release(owner: String) async throws(PushStoreError) -> Int
}

/// A claimed unit of work: what it is (for logs), how its claim is extended, and the work.
protocol LeasedWork: Sendable {
    /// Names the work in logs: the owner and the batch, page or events.
    var subject: Logger.Metadata { get }
    /// Extends the claim to the date given; false once it is no longer held.
    func renew(until: Date) async throws(PushStoreError) -> Bool
    /// Sends what was claimed; returns the recording still to do, which the worker overlaps with its next
    /// claim and send (nil: the work recorded its outcomes itself, or has nothing to record).
    func send() async -> (any LeasedRecording)?
    /// Whether the claim may have left due work behind (a full batch): the worker claims again without
    /// waiting for an announcement.
    var mayHaveLeftMore: Bool { get }
}

extension LeasedWork {
    var mayHaveLeftMore: Bool { true }
}

/// What a unit of work still has to write once it has sent (a group page's outcomes): the claim ends
/// with the record.
protocol LeasedRecording: Sendable {
    func record() async
}

/// A queue whose unit of work is a batch of rows claimed together (outbox pushes, webhook events): the
/// batch's claim is renewed row by row, and ``work(owner:batch:)`` sends it and returns its recording.
protocol LeasedBatchQueue: LeasedQueue {
    associatedtype Row: Sendable

    /// The most rows one claim takes.
    var batchLimit: Int { get }
    /// The owner's next batch, empty when nothing is due.
    func claimBatch(owner: String) async throws(PushStoreError) -> [Row]
    /// Extends the owner's claims on the batch's rows; returns how many it still held.
    func renew(owner: String, batch: [Row], until: Date) async throws(PushStoreError) -> Int
    /// Sends the batch; returns the recording of what it came to, which the worker overlaps with its next
    /// claim and send (nil: the work recorded it itself).
    func work(owner: String, batch: [Row]) async -> (any LeasedRecording)?
}

extension LeasedBatchQueue {
    var announcedAs: OutboxSignal.Work { .items }

    func claim(owner: String) async throws(PushStoreError) -> (any LeasedWork)? {
        let batch = try await claimBatch(owner: owner)
        guard !batch.isEmpty else { return nil }
        return LeasedBatch(queue: self, owner: owner, rows: batch)
    }
}

/// A claimed batch of a ``LeasedBatchQueue``: sent, then recorded while the worker sends its next unit.
struct LeasedBatch<Queue: LeasedBatchQueue>: LeasedWork {
    let queue: Queue
    let owner: String
    let rows: [Queue.Row]

    var subject: Logger.Metadata { ["owner": "\(owner)", "queue": "\(queue.name)", "count": "\(rows.count)"] }

    /// A batch short of the limit took every row that was due.
    var mayHaveLeftMore: Bool { rows.count >= queue.batchLimit }

    func renew(until: Date) async throws(PushStoreError) -> Bool {
        try await queue.renew(owner: owner, batch: rows, until: until) > 0
    }

    func send() async -> (any LeasedRecording)? {
        await queue.work(owner: owner, batch: rows)
    }
}

/// A queue whose unit of work is one page of a send (a group send's members, an audience start's users),
/// claimed whole: the page is sent as one batch, and its outcomes are recorded in one store call while
/// the worker sends its next page.
protocol LeasedPageQueue: LeasedQueue {
    associatedtype Page: Sendable
    associatedtype Outcome: Sendable

    /// The owner's next page; nil when none is due.
    func claimPage(owner: String) async throws(PushStoreError) -> Page?
    /// Names the page in logs.
    func subject(of page: Page, owner: String) -> Logger.Metadata
    /// Extends the owner's claim on the page; false once it is no longer held.
    func renew(_ page: Page, owner: String, until: Date) async throws(PushStoreError) -> Bool
    /// Sends the page; returns what it came to, or nil when it could not be sent (its claim expires and it
    /// is sent again).
    func send(_ page: Page, owner: String) async -> Outcome?
    /// Records what the page came to; the page's claim ends with it.
    func record(_ page: Page, owner: String, outcome: Outcome) async
}

extension LeasedPageQueue {
    var announcedAs: OutboxSignal.Work { .pages }

    func claim(owner: String) async throws(PushStoreError) -> (any LeasedWork)? {
        guard let page = try await claimPage(owner: owner) else { return nil }
        return LeasedPage(queue: self, page: page, owner: owner)
    }
}

/// A claimed page of a ``LeasedPageQueue``: sent, then recorded while the worker sends its next unit.
struct LeasedPage<Queue: LeasedPageQueue>: LeasedWork {
    let queue: Queue
    let page: Queue.Page
    let owner: String

    var subject: Logger.Metadata { queue.subject(of: page, owner: owner) }

    func renew(until: Date) async throws(PushStoreError) -> Bool {
        try await queue.renew(page, owner: owner, until: until)
    }

    func send() async -> (any LeasedRecording)? {
        guard let outcome = await queue.send(page, owner: owner) else { return nil }
        return LeasedPageRecording(queue: queue, page: page, owner: owner, outcome: outcome)
    }
}

/// What a sent page still has to record: every outcome of the page in one store call.
struct LeasedPageRecording<Queue: LeasedPageQueue>: LeasedRecording {
    let queue: Queue
    let page: Queue.Page
    let owner: String
    let outcome: Queue.Outcome

    func record() async {
        await queue.record(page, owner: owner, outcome: outcome)
    }
}
