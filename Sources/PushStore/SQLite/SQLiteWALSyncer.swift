import Logging
import Synchronization

/// Makes committed transactions durable by syncing the write-ahead log, on a thread of its own, so that the
/// writer never waits for the disk.
///
/// The writer commits with `synchronous=NORMAL`: in WAL mode SQLite then appends the transaction's frames
/// to the `-wal` file and returns without syncing it ("WAL mode is always consistent with
/// synchronous=NORMAL, but WAL mode does lose durability": https://www.sqlite.org/pragma.html#pragma_synchronous).
/// A durable transaction registers here once its COMMIT has returned (``committed()``), and its caller is
/// answered once a sync of the log that started after that has completed: the frames written before the
/// sync began are then on disk, as `synchronous=FULL` would have made them inside the COMMIT. A sync
/// covers every commit made before it began, so one sync answers every transaction that committed while
/// the previous one ran: at most one runs at a time, and the writer commits the next groups meanwhile.
///
/// Why nothing a sync covers is lost afterwards: SQLite copies the log into the database file only in a
/// checkpoint, which, with `NORMAL` or `FULL`, syncs the log before copying and the database file after;
/// and it writes the log again from its beginning only after a checkpoint has copied all of it, syncing
/// the log's header as it starts it again (https://www.sqlite.org/wal.html#checkpointing, and the
/// pragma's page above). So a frame this sync covered is either still in the log or already synced into
/// the database file. A power loss loses, at most, transactions no sync has covered yet, whose callers
/// were not answered; SQLite's recovery keeps the log's committed transactions up to the first torn one,
/// so what remains is consistent. Other connections (the reader, the sender's claims) may see such a
/// transaction before it is durable, for the length of one sync: a claim of a push lost that way sends a
/// push its caller was never told was stored (and may, having had no answer, send again).
///
/// When a sync fails, the state of what it was to write is unknown (the kernel may have dropped the pages
/// it could not write and report no error the next time): every waiting caller gets
/// ``PushStoreError/unavailable(detail:)`` and so does every later write (``failure``), until the process
/// opens the store again and SQLite recovers from what is on disk.
final class SQLiteWALSyncer: Sendable {
    /// Syncs the log: blocks its thread until done; a failure when the sync failed.
    typealias Operation = @Sendable () -> Result<Void, PushStoreError>

    /// A durable transaction's wait for the sync that covers it.
    final class Ticket: Sendable {
        private enum State {
            case pending(CheckedContinuation<Result<Void, PushStoreError>, Never>?)
            case done(Result<Void, PushStoreError>)
        }

        private let state = Mutex(State.pending(nil))

        fileprivate init() {}

        fileprivate func finish(_ result: Result<Void, PushStoreError>) {
            let waiting = state.withLock { state -> CheckedContinuation<Result<Void, PushStoreError>, Never>? in
                guard case .pending(let waiting) = state else { return nil }
                state = .done(result)
                return waiting
            }
            waiting?.resume(returning: result)
        }

        /// Returns once a sync that began after the commit has completed; throws when it failed.
        func wait() async throws(PushStoreError) {
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, PushStoreError>, Never>) in
                let done = state.withLock { state -> Result<Void, PushStoreError>? in
                    if case .done(let result) = state { return result }
                    state = .pending(continuation)
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
            try result.get()
        }
    }

    private struct State {
        /// Committed before the next sync begins: that sync covers them.
        var waiting: [Ticket] = []
        /// The thread is syncing, or about to.
        var running = false
        /// The first sync that failed: every later wait and write fails.
        var failure: PushStoreError?
        var completed = 0
        var closing = false
        /// ``close()``'s callers, resumed once nothing is left to sync.
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    private let operation: Operation
    private let thread = SQLiteThread(name: "SQLite log sync")
    private let state = Mutex(State())
    private let logger: Logger
    private let path: String

    /// - Parameters:
    ///   - path: the database file, for messages.
    ///   - operation: syncs the log (``SQLiteWALFile/sync()``; tests give their own).
    init(path: String, logger: Logger, operation: @escaping Operation) {
        self.path = path
        self.logger = logger
        self.operation = operation
    }

    /// Why writes are refused: the sync that failed (nil while syncs succeed).
    var failure: PushStoreError? { state.withLock { $0.failure } }

    /// The syncs completed so far (for tests).
    var completed: Int { state.withLock { $0.completed } }

    /// Registers a transaction whose COMMIT has just returned; its ticket is answered once a sync that
    /// began after this call has completed.
    func committed() -> Ticket {
        let ticket = Ticket()
        enum Next {
            case wait, start
            case refuse(PushStoreError)
        }
        let next = state.withLock { state -> Next in
            if let failure = state.failure { return .refuse(failure) }
            if state.closing { return .refuse(.unavailable(detail: "the SQLite store at '\(path)' is closed")) }
            state.waiting.append(ticket)
            guard !state.running else { return .wait }
            state.running = true
            return .start
        }
        switch next {
        case .wait: break
        case .refuse(let failure): ticket.finish(.failure(failure))
        case .start:
            if !thread.post({ self.run() }) {
                // Not reached: the thread stops only in `close()`, once nothing waits and none may register.
                let (left, drained) = state.withLock { state in
                    defer {
                        state.waiting = []
                        state.running = false
                        state.drained = []
                    }
                    return (state.waiting, state.drained)
                }
                for ticket in left { ticket.finish(.failure(.unavailable(detail: "the SQLite log's sync has stopped"))) }
                for waiter in drained { waiter.resume() }
            }
        }
        return ticket
    }

    /// On the thread: syncs while transactions wait, each sync for all those waiting when it began.
    private func run() {
        while true {
            let (covered, failed, drained) = state.withLock { state -> ([Ticket], PushStoreError?, [CheckedContinuation<Void, Never>]) in
                guard !state.waiting.isEmpty else {
                    state.running = false
                    defer { state.drained = [] }
                    return ([], nil, state.drained)
                }
                defer { state.waiting = [] }
                return (state.waiting, state.failure, [])
            }
            if covered.isEmpty {
                for waiter in drained { waiter.resume() }
                return
            }
            if let failed {
                // After a failed sync nothing can be said of what later commits wrote.
                for ticket in covered { ticket.finish(.failure(failed)) }
                continue
            }
            var result = operation()
            if case .failure(let error) = result {
                logger.error(
                    "syncing the SQLite log failed: the store refuses writes until it is opened again",
                    metadata: ["path": "\(path)", "error": "\(error)"])
                result = .failure(
                    .unavailable(
                        detail: "syncing the SQLite log of '\(path)' failed (\(error)); the store refuses writes until it is opened again"))
            }
            state.withLock { state in
                state.completed += 1
                if case .failure(let failure) = result, state.failure == nil { state.failure = failure }
            }
            for ticket in covered { ticket.finish(result) }
        }
    }

    /// Answers every registered transaction (after a last sync), then stops the thread. Called with the
    /// writer's gate held, so that no transaction commits meanwhile.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                state.closing = true
                guard state.running else { return true }
                state.drained.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        await thread.shutdown()
    }
}
