import APNsCore
import Foundation
import Synchronization
import Testing

@testable import LivePushServer

/// Waking idle delivery workers. Every wait here is given `long`: a wait that timed out took at least that
/// long, so one that ended sooner was woken. No tighter bound on the wall clock: the whole suite starts at
/// once on a busy 2-core machine, and a woken task can wait seconds for a thread.
@Suite struct OutboxSignalTests {
    private static let long = Duration.seconds(120)

    @Test func pushesAnnouncedBeforeTheWaitAreNotMissed() async {
        let signal = OutboxSignal(itemsPerWorker: 8)
        let seen = signal.generation
        signal.wake(items: 1)  // between a worker's empty claim and its wait
        let started = ContinuousClock.now
        await signal.wait(after: seen, timeout: Self.long)
        #expect(ContinuousClock.now - started < Self.long)
        #expect(signal.waitingCount == 0)
    }

    @Test func aWakeUpWakesAsManyWorkersAsTheItemsNeed() async throws {
        let signal = OutboxSignal(itemsPerWorker: 10)
        let started = ContinuousClock.now
        let (waiters, woken) = await Self.threeWaiting(signal)
        signal.wake(items: 11)  // two workers' worth
        #expect(await Self.eventually { woken.count.withLock { $0 } == 2 })
        #expect(signal.waitingCount == 1)
        signal.wakeAll()
        for waiter in waiters { await waiter.value }
        #expect(ContinuousClock.now - started < Self.long)
        #expect(signal.waitingCount == 0)
    }

    /// Requests answered by one commit announce their pushes one by one: the worker already woken takes
    /// them, no other is woken until it has begun its claim.
    @Test func aWorkerOnItsWayTakesTheItemsAnnouncedAfterIt() async throws {
        let signal = OutboxSignal(itemsPerWorker: 10)
        let (waiters, woken) = await Self.threeWaiting(signal)
        for _ in 0..<5 { signal.wake(items: 1) }
        #expect(await Self.eventually { woken.count.withLock { $0 } == 1 })
        #expect(signal.waitingCount == 2, "five pushes are one worker's claim")
        signal.wake(items: 6)
        #expect(await Self.eventually { woken.count.withLock { $0 } == 2 }, "eleven are two workers' claims")
        #expect(signal.waitingCount == 1)
        signal.claimingItems()
        signal.claimingItems()
        signal.wake(items: 1)
        #expect(await Self.eventually { woken.count.withLock { $0 } == 3 }, "both began their claims: a new push wakes the last")
        for waiter in waiters { await waiter.value }
        #expect(signal.waitingCount == 0)
    }

    @Test func theTimeoutEndsAWaitWithoutWakeUp() async {
        let signal = OutboxSignal(itemsPerWorker: 8)
        let started = ContinuousClock.now
        await signal.wait(after: signal.generation, timeout: .milliseconds(50))
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        #expect(signal.waitingCount == 0)
    }

    @Test func cancellingAWaitingTaskEndsItsWait() async {
        let signal = OutboxSignal(itemsPerWorker: 8)
        let started = ContinuousClock.now
        let waiter = Task { await signal.wait(after: signal.generation, timeout: Self.long) }
        #expect(await Self.eventually { signal.waitingCount == 1 })
        waiter.cancel()
        await waiter.value
        #expect(ContinuousClock.now - started < Self.long)
        #expect(signal.waitingCount == 0)
    }

    /// Three workers waiting on `signal`, and how many of them were woken.
    private static func threeWaiting(_ signal: OutboxSignal) async -> (waiters: [Task<Void, Never>], woken: WakeCount) {
        let seen = signal.generation
        let woken = WakeCount()
        let waiters = (0..<3).map { _ in
            Task {
                await signal.wait(after: seen, timeout: long)
                woken.count.withLock { $0 += 1 }
            }
        }
        #expect(await eventually { signal.waitingCount == 3 })
        return (waiters, woken)
    }

    private static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + long
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}

/// How many waiters woke, shared with their tasks.
private final class WakeCount: Sendable {
    let count = Mutex(0)
}
