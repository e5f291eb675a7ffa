import APNsCore
import Foundation
import LivePushTesting
import Logging
import PushStore
import Synchronization
import Testing

@testable import LivePushServer

/// The lease worker records a unit of work while it sends the next one, never more than one recording
/// beside a send, and finishes every recording before it gives back its claims.
@Suite struct LeaseWorkerTests {
    /// What the fake queue saw, in order, and the recordings not finished yet.
    final class Journal: Sendable {
        private let state = Mutex((events: [String](), recording: Set<Int>(), mostRecordingAtASend: 0))
        /// The recordings of units 1 and 2 wait for the next unit's send.
        private let gates: [Int: Gate] = [1: Gate(), 2: Gate()]

        var events: [String] { state.withLock { $0.events } }
        var mostRecordingAtASend: Int { state.withLock { $0.mostRecordingAtASend } }

        func claimed(_ unit: Int) { state.withLock { $0.events.append("claim \(unit)") } }

        /// Unit `unit` sends: the recording of the unit before it may end now.
        func send(_ unit: Int) {
            state.withLock { state in
                state.events.append("send \(unit)")
                state.mostRecordingAtASend = max(state.mostRecordingAtASend, state.recording.count)
            }
            gates[unit - 1]?.open()
        }

        /// Unit `unit` records: it waits for the next unit's send when it has a gate.
        func record(_ unit: Int) async {
            state.withLock { _ = $0.recording.insert(unit) }
            await gates[unit]?.wait()
            state.withLock { state in
                state.recording.remove(unit)
                state.events.append("recorded \(unit)")
            }
        }

        func released() { state.withLock { $0.events.append("release") } }
    }

    /// Opens once; waiting after it opened returns at once.
    final class Gate: Sendable {
        private let stream: AsyncStream<Never>
        private let continuation: AsyncStream<Never>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream(of: Never.self) }
        func open() { continuation.finish() }
        func wait() async { for await _ in stream {} }
    }

    /// Three units of work, then nothing. The last unit's recording stops the worker.
    final class Units: LeasedQueue {
        let journal: Journal
        private let next = Mutex(1)
        private let afterLast: @Sendable () -> Void

        init(journal: Journal, afterLast: @escaping @Sendable () -> Void) {
            self.journal = journal
            self.afterLast = afterLast
        }

        var name: String { "pages" }
        var announcedAs: OutboxSignal.Work { .pages }

        func claim(owner: String) async throws(PushStoreError) -> (any LeasedWork)? {
            let unit: Int? = next.withLock { count in
                guard count <= 3 else { return nil }
                defer { count += 1 }
                return count
            }
            guard let unit else { return nil }
            journal.claimed(unit)
            return Unit(number: unit, units: self)
        }

        func release(owner: String) async throws(PushStoreError) -> Int {
            journal.released()
            return 0
        }

        /// One unit: sends, then returns itself as the recording still to do.
        struct Unit: LeasedWork, LeasedRecording {
            let number: Int
            let units: Units

            var subject: Logger.Metadata { ["unit": "\(number)"] }

            func renew(until: Date) async throws(PushStoreError) -> Bool { true }

            func send() async -> (any LeasedRecording)? {
                units.journal.send(number)
                return self
            }

            func record() async {
                await units.journal.record(number)
                if number == 3 { units.afterLast() }
            }
        }
    }

    /// Three units; the first two recordings can only end once the next unit has started sending, so the
    /// run completes only if sends overlap recordings (a worker that recorded before its next claim would
    /// wait forever: the time limit fails it).
    @Test(.timeLimit(.minutes(10)))  // a hang guard; waiting for a ScopeGate place counts against it
    func aRecordingOverlapsTheNextSendAndAllAreRecordedBeforeRelease() async {
        let journal = Journal()
        let stopping = Mutex(false)
        let signal = OutboxSignal(itemsPerWorker: 8)
        let queue = Units(journal: journal) {
            stopping.withLock { $0 = true }
            signal.wakeAll()
        }
        let worker = LeaseWorker(
            owner: "w0", queues: [queue], signal: signal, pollInterval: .seconds(30), lease: 30, clock: SystemWallClock(),
            metrics: ServerMetrics(), logger: Logger(label: "test"))
        await worker.run { stopping.withLock { $0 } }

        let events = journal.events
        #expect(events.first == "release" && events.last == "release", "claims of an earlier run, then of this one")
        #expect(events.filter { $0.hasPrefix("recorded") }.sorted() == ["recorded 1", "recorded 2", "recorded 3"])
        #expect(journal.mostRecordingAtASend <= 1, "at most one recording beside a send: \(events)")
    }

    /// A queue that is always empty and counts how often it was asked.
    final class EmptyQueue: LeasedQueue {
        let name: String
        let announcedAs: OutboxSignal.Work
        private let asked = Mutex(0)

        init(_ name: String, announcedAs: OutboxSignal.Work) {
            self.name = name
            self.announcedAs = announcedAs
        }

        var claims: Int { asked.withLock { $0 } }

        func claim(owner: String) async throws(PushStoreError) -> (any LeasedWork)? {
            asked.withLock { $0 += 1 }
            return nil
        }

        func release(owner: String) async throws(PushStoreError) -> Int { 0 }
    }

    /// While single pushes pour in, a worker does not ask the empty page queue again on each of them (an
    /// empty claim is a write transaction), but does once pages are announced. The poll interval is long,
    /// so only announcements make it ask.
    @Test(.timeLimit(.minutes(10)))  // a hang guard
    func anEmptyQueueIsAskedAgainOnlyWhenWorkOfItsKindIsAnnounced() async {
        let signal = OutboxSignal(itemsPerWorker: 8)
        let items = EmptyQueue("pushes", announcedAs: .items)
        let pages = EmptyQueue("group pages", announcedAs: .pages)
        let stopping = Mutex(false)
        let worker = LeaseWorker(
            owner: "w0", queues: [items, pages], signal: signal, pollInterval: .seconds(600), lease: 30, clock: SystemWallClock(),
            metrics: ServerMetrics(), logger: Logger(label: "test"))
        async let run: Void = worker.run { stopping.withLock { $0 } }
        // A round ends with the worker waiting again.
        func roundEnded(itemClaims: Int, pageClaims: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            await eventually(timeout: .seconds(300), sourceLocation: sourceLocation) {
                items.claims == itemClaims && pages.claims >= pageClaims && signal.waitingCount == 1
            }
        }
        await roundEnded(itemClaims: 1, pageClaims: 1)
        signal.wake(items: 1)
        await roundEnded(itemClaims: 2, pageClaims: 1)
        signal.wake(items: 1)
        await roundEnded(itemClaims: 3, pageClaims: 1)
        #expect(pages.claims == 1, "pushes announced: the empty page queue is not asked again")
        signal.wake(pagesFor: 1)
        await roundEnded(itemClaims: 3, pageClaims: 2)
        #expect(items.claims == 3 && pages.claims == 2, "pages announced: only the page queue is asked again")
        stopping.withLock { $0 = true }
        signal.wakeAll()
        await run
    }

    /// A queue of items that hands out one batch per claim while it has batches (full or short, as given),
    /// then nothing, and counts the claims.
    final class ItemBatches: LeasedQueue {
        private let state: Mutex<(batches: [Bool], claims: Int, sent: Int)>

        /// `full`: for each batch in turn, whether it is a full one.
        init(full: [Bool]) { state = Mutex((full, 0, 0)) }

        var name: String { "pushes" }
        var announcedAs: OutboxSignal.Work { .items }
        var claims: Int { state.withLock { $0.claims } }
        var sent: Int { state.withLock { $0.sent } }

        func claim(owner: String) async throws(PushStoreError) -> (any LeasedWork)? {
            state.withLock { state in
                state.claims += 1
                guard !state.batches.isEmpty else { return nil }
                return Batch(full: state.batches.removeFirst(), queue: self)
            }
        }

        func release(owner: String) async throws(PushStoreError) -> Int { 0 }

        struct Batch: LeasedWork {
            let full: Bool
            let queue: ItemBatches
            var subject: Logger.Metadata { [:] }
            var mayHaveLeftMore: Bool { full }
            func renew(until: Date) async throws(PushStoreError) -> Bool { true }
            func send() async -> (any LeasedRecording)? {
                queue.state.withLock { $0.sent += 1 }
                return nil
            }
        }
    }

    /// A worker that has claimed a short batch does not claim again until items are announced (the poll
    /// interval is long): that claim would find the outbox empty, a write transaction for nothing. After a
    /// full batch it claims again at once; an announcement of pages does not make it claim items.
    @Test(.timeLimit(.minutes(10)))  // a hang guard
    func aShortBatchIsNotFollowedByAClaimUntilItemsAreAnnounced() async {
        let signal = OutboxSignal(itemsPerWorker: 8)
        let items = ItemBatches(full: [false, true, false])
        let stopping = Mutex(false)
        let worker = LeaseWorker(
            owner: "w0", queues: [items], signal: signal, pollInterval: .seconds(600), lease: 30, clock: SystemWallClock(),
            metrics: ServerMetrics(), logger: Logger(label: "test"))
        async let run: Void = worker.run { stopping.withLock { $0 } }
        func waiting(sent: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            await eventually(timeout: .seconds(300), sourceLocation: sourceLocation) { items.sent >= sent && signal.waitingCount == 1 }
            #expect(items.sent == sent, sourceLocation: sourceLocation)
        }
        await waiting(sent: 1)
        #expect(items.claims == 1, "a short batch took every due item: no claim after it")
        signal.wake(pagesFor: 1)
        await waiting(sent: 1)
        #expect(items.claims == 1, "pages announced: no claim of items")
        signal.wake(items: 3)
        await waiting(sent: 3)
        #expect(items.claims == 3, "items announced: a full batch, then at once the rest (a short batch)")
        stopping.withLock { $0 = true }
        signal.wakeAll()
        await run
    }
}
