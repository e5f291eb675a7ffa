import APNsCore
import Synchronization

/// Opens once the HTTP API listens (with its port), or closes if it never will. Background services
/// wait on it, so no push is claimed and no sweep runs for a server that could not bind its port.
final class ListeningGate: Sendable {
    private enum Phase {
        case waiting([CheckedContinuation<Int?, Never>])
        case open(Int)
        case closed
    }

    private let phase = Mutex(Phase.waiting([]))

    /// The API listens on `port`: every waiter goes on.
    func open(port: Int) { finish(.open(port)) }

    /// The API will not listen (it failed or stopped first): every waiter gives up. No effect once open.
    func close() { finish(.closed) }

    /// True once the API has listened.
    var isOpen: Bool { phase.withLock { if case .open = $0 { true } else { false } } }

    /// The port once the API listens; nil if it never will or the task is cancelled.
    func wait() async -> Int? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
                let answer: Int?? = phase.withLock { phase in
                    if Task.isCancelled { return .some(nil) }
                    switch phase {
                    case .waiting(var waiters):
                        waiters.append(continuation)
                        phase = .waiting(waiters)
                        return .none
                    case .open(let port): return .some(port)
                    case .closed: return .some(nil)
                    }
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            // Only a stopping server cancels its services: nothing will wait for it to listen any more.
            close()
        }
    }

    private func finish(_ final: Phase) {
        let waiters = phase.withLock { phase -> [CheckedContinuation<Int?, Never>] in
            guard case .waiting(let waiters) = phase else { return [] }
            phase = final
            return waiters
        }
        let port: Int? = if case .open(let port) = final { port } else { nil }
        for waiter in waiters { waiter.resume(returning: port) }
    }
}
