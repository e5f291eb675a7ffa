import APNsCore
import Synchronization

/// What the pool needs to know about one connection, updated from its event loop and read from anywhere.
final class ConnectionState: Sendable {
    struct Values {
        /// The server's SETTINGS_MAX_CONCURRENT_STREAMS (APNs starts at 1 with token auth).
        var maximumConcurrentStreams = 1
        /// Requests handed to this connection and not yet answered.
        var inFlight = 0
        /// The server sent GOAWAY: no new requests.
        var goingAway = false
        var goAwayReason: APNsReason?
        /// The last stream the server's GOAWAY said it may process; streams above it it will not.
        var goAwayLastStreamID: Int?
        var closed = false
    }

    private let values = Mutex(Values())

    var snapshot: Values { values.withLock { $0 } }

    /// Usable for a new request.
    var isUsable: Bool { values.withLock { !$0.goingAway && !$0.closed } }

    func update(_ body: (inout Values) -> Void) { values.withLock { body(&$0) } }

    var goAwayReason: APNsReason? { values.withLock { $0.goAwayReason } }

    /// True when a GOAWAY's last stream id is below `streamID`: the server will not process that stream
    /// (RFC 9113 §6.8), so sending it again cannot duplicate it.
    func isRefusedByGoAway(streamID: Int) -> Bool {
        values.withLock { $0.goAwayLastStreamID.map { streamID > $0 } ?? false }
    }
}
