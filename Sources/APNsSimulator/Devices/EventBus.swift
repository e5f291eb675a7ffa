import Foundation
import Synchronization

/// Fans events out to any number of subscribers. Each subscriber has a bounded buffer; a slow subscriber
/// loses its oldest events, and publishing never waits.
public final class EventBus: Sendable {
    private let state = LockedState()
    private let bufferSize: Int

    public init(bufferSize: Int = 1024) {
        self.bufferSize = max(1, bufferSize)
    }

    /// A stream of every event published from now on. Ends when the consumer stops iterating or the bus
    /// is closed (a stream asked for after ``close()`` is already finished).
    public func subscribe() -> AsyncStream<SimulatorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SimulatorEvent.self, bufferingPolicy: .bufferingNewest(bufferSize))
        guard let id = state.add(continuation) else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [state] _ in state.remove(id) }
        return stream
    }

    /// Ends every subscriber's stream, now and from now on (at shutdown: the event-stream responses
    /// then end, so the control server can stop gracefully).
    public func close() {
        for continuation in state.close() { continuation.finish() }
    }

    /// Sends an event to every current subscriber.
    public func publish(_ event: SimulatorEvent) {
        for continuation in state.current() {
            continuation.yield(event)
        }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.count() }

    private final class LockedState: Sendable {
        private struct Subscribers {
            var nextID = 0
            var continuations: [Int: AsyncStream<SimulatorEvent>.Continuation] = [:]
            var closed = false
        }

        private let subscribers = Mutex(Subscribers())

        /// The subscriber's id, or nil once closed.
        func add(_ continuation: AsyncStream<SimulatorEvent>.Continuation) -> Int? {
            subscribers.withLock { state in
                guard !state.closed else { return nil }
                state.nextID += 1
                state.continuations[state.nextID] = continuation
                return state.nextID
            }
        }

        /// Marks the bus closed and hands back the subscribers to finish (outside the lock: finishing
        /// runs their termination handlers, which take it).
        func close() -> [AsyncStream<SimulatorEvent>.Continuation] {
            subscribers.withLock { state in
                state.closed = true
                defer { state.continuations.removeAll() }
                return Array(state.continuations.values)
            }
        }

        func remove(_ id: Int) { subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) } }

        func count() -> Int { subscribers.withLock { $0.continuations.count } }

        func current() -> [AsyncStream<SimulatorEvent>.Continuation] {
            subscribers.withLock { Array($0.continuations.values) }
        }
    }
}
