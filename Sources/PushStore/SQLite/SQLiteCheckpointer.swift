import CSQLite
import Logging
import Synchronization

/// Copies the write-ahead log into the database file on a connection and thread of its own, so that no
/// commit waits for it.
///
/// By default SQLite checkpoints inside the commit that takes the log past 1,000 pages: that commit, and
/// every request of its group (``GroupCommitBackend``), then waits while pages are copied and the file is
/// synced as well as the log. Here the writer's log hook (`sqlite3_wal_hook`, which replaces the automatic
/// checkpoint) asks for a checkpoint past ``threshold`` pages, and this connection runs a `PASSIVE` one: it
/// copies what no reader still needs, beside the writer, never waiting for a lock. The writer starts the log
/// again from its beginning once a checkpoint has copied all of it. Should the log still reach
/// ``backstop`` pages, the committing writer checkpoints itself, as SQLite would have.
final class SQLiteCheckpointer: Sendable {
    /// Log pages after which a checkpoint is asked for (SQLite's own automatic checkpoint: 1,000).
    let threshold: Int
    /// Log pages after which the writer checkpoints inline.
    let backstop: Int
    private let handle: SQLiteHandle
    private let state = Mutex(State())

    private struct State {
        /// A checkpoint is queued or running.
        var scheduled = false
        /// Asked for again while one was scheduled: one more runs after it.
        var again = false
        var completed = 0
        /// The log's length after the last commit.
        var lastLog = 0
    }

    /// What a test checks: checkpoints run so far, whether one is queued or running, and the log's length
    /// after the last commit.
    struct Status: Sendable, Equatable {
        var completed: Int
        var idle: Bool
        var lastLog: Int
    }

    init(handle: SQLiteHandle, threshold: Int, backstop: Int = 16_000) {
        self.handle = handle
        self.threshold = max(1, threshold)
        self.backstop = max(self.threshold, backstop)
    }

    var status: Status {
        state.withLock { Status(completed: $0.completed, idle: !$0.scheduled, lastLog: $0.lastLog) }
    }

    /// Called by the writer's log hook after each commit, on the writer's thread: `pages` is the log's
    /// length. Returns whether the writer should checkpoint inline (the backstop).
    func committed(pages: Int) -> Bool {
        state.withLock { $0.lastLog = pages }
        guard pages >= threshold else { return false }
        request()
        return pages >= backstop
    }

    /// Queues a checkpoint unless one is queued; one asked for while running runs once more after it.
    private func request() {
        let post = state.withLock { state -> Bool in
            if state.scheduled {
                state.again = true
                return false
            }
            state.scheduled = true
            return true
        }
        guard post else { return }
        if !handle.thread.post({ self.run() }) {
            state.withLock { $0.scheduled = false }  // closing: the last connection's close checkpoints
        }
    }

    /// On the checkpointer's thread.
    private func run() {
        while true {
            handle.checkpointPassive()
            let more = state.withLock { state -> Bool in
                state.completed += 1
                if state.again {
                    state.again = false
                    return true
                }
                state.scheduled = false
                return false
            }
            if !more { return }
        }
    }

    func close() async {
        await handle.close()
    }
}
