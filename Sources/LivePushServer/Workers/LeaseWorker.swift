import APNsCore
import Foundation
import Logging
import PushStore

/// The one loop that works leased queues (outbox batches, group-send pages, webhook events). It first
/// takes back what an earlier run with the same owner left (a restarted process with a stable instance
/// id); then, until stopped, claims from each queue in turn and does the work while renewing its lease
/// every third of it; when no queue had work it waits until this process accepts something (the signal)
/// or the poll interval passes (retries coming due, work accepted by other instances). Work that returns a
/// recording (a group page) is recorded while the worker claims and sends its next unit: at most one
/// recording runs beside a send, so a page's writes do not hold back the next page's pushes. On the way
/// out it finishes its recordings, then gives back every claim it still holds.
struct LeaseWorker: Sendable {
    let owner: String
    /// Asked in this order each round: earlier queues first.
    let queues: [any LeasedQueue]
    let signal: OutboxSignal
    let pollInterval: Duration
    /// How long a claim lasts; it is renewed every third of it.
    let lease: TimeInterval
    let clock: any WallClock
    let metrics: ServerMetrics
    let logger: Logger

    func run(isStopping: @Sendable () -> Bool) async {
        await release(after: "an earlier run")
        await withTaskGroup(of: Void.self) { units in
            // A queue found empty is not asked again until work of its kind is announced or the poll
            // interval passes: while a group send's pages go out, no empty outbox claim takes the writer,
            // and while single pushes pour in, no empty page claim.
            var found = Array(repeating: FoundEmpty(), count: queues.count)
            // A queue of items is asked again only when it may hold more than its last claim left: items were
            // announced since (and no claim has begun to take them), the last claim took a full batch, or the
            // poll interval passed. Under a stream of single pushes, the worker that has just sent a batch does
            // not claim again only to find it taken (an empty claim is a write transaction).
            var claimedItems = Array(repeating: LastItemClaim(), count: queues.count)
            // Units started and not yet finished: the one sending, and at most one recording before it.
            var unfinished = 0
            while true {
                // Read before checking for stop: stop sets the flag, then wakes, so a wake-up is never missed.
                let seen = signal.generation
                if isStopping() { break }
                var worked = false
                for (index, queue) in queues.enumerated() where !isStopping() {
                    let claimed: (any LeasedWork)?
                    if queue.announcedAs == .items {
                        guard claimedItems[index].isDue(announced: signal.hasUnclaimedItems, interval: pollInterval) else { continue }
                        let started = ContinuousClock.now
                        claimed = await claim(queue)
                        claimedItems[index].record(at: started, mayHaveLeftMore: claimed?.mayHaveLeftMore ?? false)
                    } else {
                        let announced = signal.generation(of: queue.announcedAs)
                        claimed = await found[index].unlessEmpty(generation: announced, interval: pollInterval) { await claim(queue) }
                    }
                    guard let work = claimed else { continue }
                    worked = true
                    let (sent, sending) = AsyncStream.makeStream(of: Never.self)
                    units.addTask { await renewing(work, whenSent: { sending.finish() }) }
                    unfinished += 1
                    for await _ in sent {}
                    // Two units out (one recording, one that has just sent): wait for one before the next send.
                    if unfinished == 2 {
                        await units.next()
                        unfinished -= 1
                    }
                }
                if isStopping() { break }
                if !worked {
                    // Idle: nothing overlaps a wait, so what is recorded is recorded before it.
                    while unfinished > 0, await units.next() != nil { unfinished -= 1 }
                    await signal.wait(after: seen, timeout: pollInterval)
                }
            }
            await units.waitForAll()
        }
        await release(after: "this run")
    }

    private func claim(_ queue: any LeasedQueue) async -> (any LeasedWork)? {
        if queue.announcedAs == .items { signal.claimingItems() }
        do {
            return try await queue.claim(owner: owner)
        } catch {
            logger.error("claiming \(queue.name) failed", metadata: ["owner": "\(owner)", "error": "\(error)"])
            return nil
        }
    }

    private func release(after run: String) async {
        for queue in queues {
            do {
                let released = try await queue.release(owner: owner)
                if released > 0 {
                    logger.info("released \(queue.name) claimed by \(run)", metadata: ["owner": "\(owner)", "count": "\(released)"])
                }
            } catch {
                logger.error("releasing claims of \(queue.name) failed", metadata: ["owner": "\(owner)", "error": "\(error)"])
            }
        }
    }

    /// Runs the work, then its recording, while renewing its claim every third of the lease, so work that
    /// outlasts the lease (a slow APNs, a loaded store) is not handed to another worker and done twice. Once
    /// the claim is no longer held, renewal stops (what is in flight finishes, and its record is refused as
    /// not held). `whenSent` is called once the work has sent, before its recording.
    private func renewing(_ work: any LeasedWork, whenSent: @Sendable () -> Void) async {
        let interval = Duration.milliseconds(Int64(lease * 1000 / 3))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    do { try await Task.sleep(for: interval) } catch { return }
                    do {
                        guard try await work.renew(until: clock.now().addingTimeInterval(lease)) else {
                            logger.warning("a claim was taken over while its work was still being done", metadata: work.subject)
                            metrics.recordClaimLost()
                            return
                        }
                        metrics.recordClaimRenewal()
                    } catch {
                        // The next renewal may succeed; the lease covers two more intervals.
                        logger.warning("renewing a claim failed", metadata: work.subject.merging(["error": "\(error)"]) { $1 })
                    }
                }
            }
            let recording = await work.send()
            whenSent()
            await recording?.record()
            group.cancelAll()
        }
    }
}

/// When a queue of items was last claimed from, and whether that claim may have left due items behind.
private struct LastItemClaim {
    private var last: (at: ContinuousClock.Instant, mayHaveLeftMore: Bool)?

    /// Whether to claim now: never claimed yet, items announced and not yet being claimed, a full last
    /// batch, or the poll interval passed (retries coming due, items other instances accepted).
    func isDue(announced: Bool, interval: Duration) -> Bool {
        guard let last else { return true }
        return announced || last.mayHaveLeftMore || ContinuousClock.now - last.at >= interval
    }

    mutating func record(at started: ContinuousClock.Instant, mayHaveLeftMore: Bool) {
        last = (started, mayHaveLeftMore)
    }
}

/// When a queue was last found empty, and the signal's generation then.
private struct FoundEmpty {
    private var last: (generation: UInt64, at: ContinuousClock.Instant)?

    /// `body`'s answer, or nil without asking when it was empty at this generation within `interval`.
    mutating func unlessEmpty<T>(generation: UInt64, interval: Duration, _ body: () async -> T?) async -> T? {
        if let last, last.generation == generation, ContinuousClock.now - last.at < interval { return nil }
        let found = await body()
        last = found == nil ? (generation, ContinuousClock.now) : nil
        return found
    }
}
