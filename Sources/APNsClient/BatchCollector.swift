import NIOCore

/// One answer of a batch sent on one connection: the answer or typed error, and when it came.
struct ConnectionAnswer: Sendable {
    var result: Result<WireResponse, APNsClientError>
    var answeredAt: ContinuousClock.Instant
}

/// Gathers the answers to one batch of requests on one connection, on its event loop: each answer lands
/// in its slot, and the caller is resumed once, when the last one is in. One continuation per batch
/// instead of one per request (and no task per request on the caller's side).
final class BatchCollector {
    private var answers: [ConnectionAnswer]
    private var remaining: Int
    private let state: ConnectionState
    private let continuation: UnsafeContinuation<[ConnectionAnswer], Never>

    /// `count` slots; the connection's `inFlight` already counts them, and each answer takes one off.
    init(count: Int, state: ConnectionState, continuation: UnsafeContinuation<[ConnectionAnswer], Never>) {
        // Every slot is written before the caller resumes; this value is never handed out.
        let unanswered = ConnectionAnswer(
            result: .failure(.connectionClosed(processed: false, detail: "no answer")), answeredAt: .now)
        self.answers = Array(repeating: unanswered, count: count)
        self.remaining = count
        self.state = state
        self.continuation = continuation
        if count == 0 { continuation.resume(returning: []) }
    }

    /// The answer of the request in slot `index`; resumes the caller with all of them after the last.
    func record(_ result: Result<WireResponse, APNsClientError>, at index: Int) {
        answers[index] = ConnectionAnswer(result: result, answeredAt: .now)
        remaining -= 1
        state.update { $0.inFlight -= 1 }
        if remaining == 0 { continuation.resume(returning: answers) }
    }
}
