import Foundation

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

    private final class LockedState: @unchecked Sendable {
        private let lock = NSLock()
        private var nextID = 0
        private var continuations: [Int: AsyncStream<SimulatorEvent>.Continuation] = [:]
        private var closed = false

        /// The subscriber's id, or nil once closed.
        func add(_ continuation: AsyncStream<SimulatorEvent>.Continuation) -> Int? {
            lock.withLock {
                guard !closed else { return nil }
                nextID += 1
                continuations[nextID] = continuation
                return nextID
            }
        }

        /// Marks the bus closed and hands back the subscribers to finish (outside the lock: finishing
        /// runs their termination handlers, which take it).
        func close() -> [AsyncStream<SimulatorEvent>.Continuation] {
            lock.withLock {
                closed = true
                defer { continuations.removeAll() }
                return Array(continuations.values)
            }
        }

        func remove(_ id: Int) { lock.withLock { _ = continuations.removeValue(forKey: id) } }

        func count() -> Int { lock.withLock { continuations.count } }

        func current() -> [AsyncStream<SimulatorEvent>.Continuation] {
            lock.withLock { Array(continuations.values) }
        }
    }
}
