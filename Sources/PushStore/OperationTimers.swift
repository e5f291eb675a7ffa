import Metrics
import Synchronization

/// The duration timer of each store operation (`livepush_store_duration_seconds`, by backend and
/// operation), made once per operation: making one per call had the metrics backend check the name and
/// look the metric up by label and dimensions on every store call, twice per update.
final class OperationTimers: Sendable {
    private let backend: String
    private let made = Mutex<[String: Metrics.Timer]>([:])

    init(backend: String) {
        self.backend = backend
    }

    /// `operation`'s timer.
    func timer(_ operation: String) -> Metrics.Timer {
        made.withLock { made in
            if let timer = made[operation] { return timer }
            let timer = Metrics.Timer(label: "livepush_store_duration_seconds", dimensions: [("backend", backend), ("operation", operation)])
            made[operation] = timer
            return timer
        }
    }
}
