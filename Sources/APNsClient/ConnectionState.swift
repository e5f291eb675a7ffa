import Synchronization

/// What the pool needs to know about one connection, updated from its event loop and its callers and read
/// from anywhere: its load, and whether it takes new requests. The connection's life itself (open, going
/// away, closed) is `ConnectionStateMachine`, on the event loop; leaving `open` makes it stop taking requests.
final class ConnectionState: Sendable {
    struct Values {
        /// The server's SETTINGS_MAX_CONCURRENT_STREAMS (APNs starts at 1 with token auth).
        var maximumConcurrentStreams = 1
        /// Requests handed to this connection and not yet answered.
        var inFlight = 0
        /// The connection's state machine is `open`.
        var takesRequests = true
    }

    private let values = Mutex(Values())

    var snapshot: Values { values.withLock { $0 } }

    /// Usable for a new request.
    var isUsable: Bool { values.withLock { $0.takesRequests } }

    func update(_ body: (inout Values) -> Void) { values.withLock { body(&$0) } }
}
