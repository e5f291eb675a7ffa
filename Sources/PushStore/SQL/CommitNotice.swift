import Synchronization

/// Tells whoever runs a transaction that its COMMIT has returned, before the transaction is durable, so
/// that writes which take turns (``GroupCommitBackend``'s groups, ``WriteGroups``'s groups) start the next
/// one while the disk still syncs this one.
///
/// On SQLite a commit returns once its log frames are written, and a durable transaction's caller is
/// answered only after the log's sync (``SQLiteWALSyncer``): between the two the next group's statements
/// may run, and see this one's rows, as they would have once it was answered. A backend that does not
/// tell (PostgreSQL) lets the next one start once the transaction has ended, as before.
///
/// The notice is a task-local value, read by the backend that commits (``SQLiteBackend``), so that the
/// layers between (``SQLPushStore``'s operations, test wrappers) need not carry it. (A struct, not a bare
/// closure: a task-local of an optional closure type crashed `withValue` in release builds, Swift 6.3.1.)
struct SQLCommitNotice: Sendable {
    private let notify: @Sendable () -> Void

    init(_ notify: @escaping @Sendable () -> Void) {
        self.notify = notify
    }

    func callAsFunction() {
        notify()
    }

    /// Told once the current task's transaction has committed (durable or not yet), at most once per
    /// transaction; never for one that rolled back.
    @TaskLocal static var current: SQLCommitNotice?

    /// Runs `work` in a task of its own and returns once a transaction of `work` has committed (see the
    /// type), or once `work` has ended when none told. `work` must commit at most one transaction for
    /// the writes that come after it, when told, to come after all of its writes.
    static func runUntilCommitted(_ work: @escaping @Sendable () async -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = Mutex<CheckedContinuation<Void, Never>?>(continuation)
            let resume = SQLCommitNotice {
                let first = waiting.withLock { waiting in
                    defer { waiting = nil }
                    return waiting
                }
                first?.resume()
            }
            Task {
                await $current.withValue(resume) { await work() }
                resume()
            }
        }
    }
}
