import APNsCore

/// The life of one HTTP/2 connection to APNs as states whose transitions return what the connection must
/// do, in the manner of swift-nio-http2's `ConnectionStateMachine`. Each state holds only what is true in
/// it: a connection that is going away knows what the server's GOAWAY said, one whose stream ids ran out
/// closes once its last answer is in, and a closed one keeps the GOAWAY that came before, for the errors
/// of the requests it fails. A value type without I/O: `APNsRequestsHandler` owns it on the connection's
/// event loop and carries out the actions.
struct ConnectionStateMachine {
    /// What the server's GOAWAY said.
    struct GoAway: Equatable {
        /// The last stream the server may process; it will not process those above it (RFC 9113 §6.8).
        var lastStreamID: Int
        /// APNs' reason, from the frame's JSON, when it gave one.
        var reason: APNsReason?

        /// A later GOAWAY can only lower the last stream id; without a reason it keeps the earlier one.
        func followed(by later: GoAway) -> GoAway {
            GoAway(lastStreamID: min(lastStreamID, later.lastStreamID), reason: later.reason ?? reason)
        }
    }

    enum State: Equatable {
        /// Takes new requests.
        case open
        /// The server sent GOAWAY: takes no new request and finishes those it has.
        case goingAway(GoAway)
        /// The client's stream ids ran out: takes no new request and closes once the last answer is in
        /// (the server may have sent GOAWAY since).
        case streamIDsUsedUp(GoAway?)
        /// The channel closed.
        case closed(GoAway?)
    }

    private(set) var state: State = .open

    /// Takes new requests.
    var isOpen: Bool { state == .open }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// The GOAWAY the connection received, if any.
    var goAway: GoAway? {
        switch state {
        case .open: return nil
        case .goingAway(let goAway): return goAway
        case .streamIDsUsedUp(let goAway), .closed(let goAway): return goAway
        }
    }

    // MARK: - Transitions

    /// What to do with a request about to be written.
    enum NewRequestAction: Equatable {
        /// Write it.
        case send
        /// Write nothing and fail it with this error.
        case refuse(APNsClientError)
        /// Write nothing, fail it with this error, and close the connection once no answer is awaited.
        case refuseAndCloseWhenIdle(APNsClientError)
    }

    /// A request is about to be written; `streamIDsLeft` is false when the client's stream ids are used up.
    mutating func newRequest(streamIDsLeft: Bool) -> NewRequestAction {
        switch state {
        case .open:
            guard streamIDsLeft else {
                // The pool opens a new connection for what comes next.
                state = .streamIDsUsedUp(nil)
                return .refuseAndCloseWhenIdle(.connectionClosed(processed: false, detail: "the connection used up its stream ids"))
            }
            return .send
        case .goingAway, .streamIDsUsedUp:
            return .refuse(failure(processed: false, streamID: nil, detail: "the connection is going away"))
        case .closed:
            return .refuse(.connectionClosed(processed: false, detail: "the connection is closed"))
        }
    }

    /// What to do on the server's GOAWAY.
    enum GoAwayAction: Equatable {
        /// Fail the requests above this stream id that have not gone out yet (swift-nio-http2 holds them
        /// back for the server's stream limit), as not processed, and reset their streams, so that they are
        /// never sent on a connection that is going away.
        case failUnsentRequests(above: Int)
        /// Nothing: the connection is closed.
        case none
    }

    /// The server sent GOAWAY.
    mutating func receivedGoAway(_ goAway: GoAway) -> GoAwayAction {
        switch state {
        case .open: state = .goingAway(goAway)
        case .goingAway(let earlier): state = .goingAway(earlier.followed(by: goAway))
        case .streamIDsUsedUp(let earlier): state = .streamIDsUsedUp(earlier?.followed(by: goAway) ?? goAway)
        case .closed: return .none
        }
        return .failUnsentRequests(above: goAway.lastStreamID)
    }

    /// What to do once a request ended (answered, failed or timed out).
    enum RequestEndedAction: Equatable {
        case none
        /// Close the connection: its stream ids are used up and no answer is awaited any more.
        case close
    }

    /// A request ended; `awaiting` requests still wait for their answers.
    func requestEnded(awaiting: Int) -> RequestEndedAction {
        if case .streamIDsUsedUp = state, awaiting == 0 { return .close }
        return .none
    }

    /// The channel closed: every request still waiting fails (with `failure(processed:streamID:detail:)`).
    mutating func channelClosed() {
        state = .closed(goAway)
    }

    // MARK: - Errors

    /// The error of a request that ends without an answer: the GOAWAY's reason when the server sent one,
    /// else a closed connection. A stream above the GOAWAY's last stream id was not processed, even if its
    /// HEADERS went out (a request sent while the GOAWAY was on its way), so sending it again cannot
    /// duplicate it.
    func failure(processed: Bool, streamID: Int?, detail: String) -> APNsClientError {
        let goAway = self.goAway
        let refused = streamID.map { streamID in goAway.map { streamID > $0.lastStreamID } ?? false } ?? false
        let processed = processed && !refused
        if let reason = goAway?.reason { return .goAway(reason: reason, processed: processed) }
        return .connectionClosed(processed: processed, detail: detail)
    }
}
