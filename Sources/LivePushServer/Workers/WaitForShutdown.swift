import ServiceLifecycle
import Synchronization

/// Returns on graceful shutdown or cancellation: what a Service with nothing to do runs, since a service
/// that returns early stops the whole application.
func waitForShutdown() async {
    try? await gracefulShutdown()
}

/// Runs lease workers until they return. Graceful shutdown or cancellation turns `isStopping` true and
/// wakes them through `signal`: they stop claiming, finish what they have under way, give back their
/// claims and return.
func untilShutdown(waking signal: OutboxSignal, _ body: (_ isStopping: @escaping @Sendable () -> Bool) async -> Void) async {
    let stopping = StopFlag()
    let stop: @Sendable () -> Void = {
        stopping.set()
        signal.wakeAll()
    }
    await withTaskCancellationHandler {
        await withGracefulShutdownHandler {
            await body { stopping.isSet }
        } onGracefulShutdown: {
            stop()
        }
    } onCancel: {
        stop()
    }
}

/// Set once, on the way out; read by every worker before each claim.
private final class StopFlag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() { value.withLock { $0 = true } }
}
