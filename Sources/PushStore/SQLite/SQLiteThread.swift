import Foundation
import Synchronization

/// The one thread of one SQLite connection. It runs the connection's jobs, and it is a `TaskExecutor`:
/// a task that prefers it (`withTaskExecutorPreference`) runs its nonisolated code on this thread, so a
/// transaction's body and the statements it awaits share the thread and each statement runs inline,
/// instead of two thread switches per statement (to the connection's thread and back).
///
/// The thread is used by nothing else: a job that blocks (a checkpoint's fsync, a wait for another process's
/// write lock) blocks only this connection. Once stopped, it never drops work: a task that still prefers
/// it runs on the global executor, and ``run(_:)`` answers ``PushStoreError/unavailable(detail:)``.
final class SQLiteThread: TaskExecutor, @unchecked Sendable {
    // @unchecked: `identity` is written once, by the thread itself, before any job can ask for it
    // (``init()`` waits for it); everything else is behind `state`'s lock.
    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct State {
        var queue: [Work] = []
        var head = 0
        var stopping = false
        /// The thread has run its last work and ended.
        var stopped = false
    }

    private let condition = NSCondition()
    private var state = State()
    private var identity: pthread_t?

    init(name: String = "SQLite") {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            identity = pthread_self()
            started.signal()
            loop()
        }
        thread.name = name
        thread.start()
        started.wait()
    }

    /// Whether the caller runs on this thread.
    var isCurrent: Bool {
        guard let identity else { return false }
        return pthread_equal(identity, pthread_self()) != 0
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !submit(.job(job)) {
            // Stopped: the task runs on, elsewhere. A preference, not a requirement.
            globalConcurrentExecutor.enqueue(job)
        }
    }

    /// Runs `body` on this thread: at once when the caller is on it, else as a job, resuming the caller once
    /// with its result. The body runs whatever happens to the calling task (cancellation included).
    func run<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, PushStoreError>) async -> Result<T, PushStoreError> {
        if isCurrent { return body() }
        return await withCheckedContinuation { continuation in
            let accepted = submit(.closure { continuation.resume(returning: body()) })
            if !accepted {
                continuation.resume(returning: .failure(.unavailable(detail: "the SQLite connection's thread has stopped")))
            }
        }
    }

    /// Queues `body` to run on this thread and returns at once; false (and `body` never runs) once the
    /// thread is stopping.
    @discardableResult
    func post(_ body: @escaping @Sendable () -> Void) -> Bool {
        submit(.closure(body))
    }

    /// Stops the thread once the work already given to it has run; later work is refused (see the type).
    func shutdown() async {
        stop()
        // Waited for off the cooperative pool's threads: the thread's last job may be one of ours.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.condition.lock()
                while !self.state.stopped { self.condition.wait() }
                self.condition.unlock()
                continuation.resume()
            }
        }
    }

    /// Refuses new work from now on; the thread ends once it has run what it was given.
    private func stop() {
        condition.lock()
        state.stopping = true
        // Every waiter: the thread, and any earlier caller of `shutdown` waiting for `stopped`.
        condition.broadcast()
        condition.unlock()
    }

    /// Queues `work`; false once the thread is stopping.
    private func submit(_ work: Work) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !state.stopping else { return false }
        state.queue.append(work)
        condition.signal()
        return true
    }

    /// The thread's body: runs work in order until stopped with nothing left to run.
    private func loop() {
        while true {
            condition.lock()
            while state.head == state.queue.count && !state.stopping { condition.wait() }
            if state.head == state.queue.count {
                state.stopped = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let work = state.queue[state.head]
            state.head += 1
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            }
            condition.unlock()
            switch work {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .closure(let body): body()
            }
        }
    }
}
