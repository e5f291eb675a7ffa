import APNsCore
import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Sends requests as HTTP/2 frames on one connection and matches the answers by stream id, without a
/// child channel (and its pipeline) per request: per request one HEADERS frame, one DATA frame and one
/// deadline, a flush shared by the requests of one event-loop turn and one timer for all deadlines.
/// Sits after `NIOHTTP2Handler` (no stream multiplexer), which still enforces the protocol: stream
/// states, the server's stream limit (requests above it wait in its buffer) and outbound flow control.
/// Streams open at once are also held to a limit of our own (``streamLimit``): requests above it wait
/// here, in order, and go out as answers free streams. swift-nio-http2 keeps a connection's streams in
/// arrays sorted by id, and a stream closed out of order moves every newer one: with a thousand streams
/// open that move costs more than the rest of the request.
/// Inbound flow control is ours: without a multiplexer nobody else returns the window the answers use.
/// Every method runs on the connection's event loop.
final class APNsRequestsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// Called once per request, on the event loop, with the answer or a typed error.
    typealias Completion = @Sendable (Result<WireResponse, APNsClientError>) -> Void

    /// One request waiting for its answer.
    private struct Exchange {
        var waiter: ExchangeWaiter
        var deadline: NIODeadline
        var timeout: TimeAmount
        /// The server has the stream (its HEADERS left through the HTTP/2 state machine).
        var opened = false
        var status: Int?
        var apnsID: String?
        var requestID: String?
        var uniqueID: String?
        var channelID: String?
        var body: ByteBuffer?
        /// Answer bytes received on this stream since its window was last returned.
        var unreturned = 0
    }

    /// The receive window we give each stream (SETTINGS_INITIAL_WINDOW_SIZE); half of it used is returned.
    static let streamWindow = 1 << 20
    /// The connection's receive window: raised from the protocol's 65,535 bytes when the connection opens,
    /// and returned as answers use it. The margin keeps the connection open even if bytes we never see
    /// (DATA of a stream we reset, which swift-nio-http2 drops) are never returned.
    static let connectionWindow = 1 << 30
    /// Used connection window is returned once this much has accumulated.
    private static let connectionReturnThreshold = 16_384
    /// The last client stream id (2^31 - 1); a connection that reaches it takes no more requests.
    private static let lastStreamID = Int32.max

    /// What the pool reads: this handler says when the connection stops taking requests.
    private let state: ConnectionState
    /// Open, going away, out of stream ids or closed; each transition says what to do.
    private var machine = ConnectionStateMachine()
    private var context: ChannelHandlerContext?
    private var exchanges: [HTTP2StreamID: Exchange] = [:]
    private var nextStreamID: Int32 = 1
    private var connectionUnreturned = 0
    private var closed: Bool { machine.isClosed }
    /// A flush is queued on the event loop: requests sent before it runs share its one write (and TLS record).
    private var flushQueued = false
    /// The one timer for every request's deadline, set to the earliest of them (see `expireRequests`).
    private var deadlineTimer: Scheduled<Void>?
    private var deadlineTimerAt: NIODeadline?
    /// Requests written since the last flush.
    private var unflushed = 0
    /// The most requests that wait for a shared flush.
    static let flushBatch = 16
    /// The most streams open at once (see the type's note); the server's own limit may be lower.
    let streamLimit: Int
    /// Requests waiting for a stream under ``streamLimit``, oldest first.
    private var queued = CircularBuffer<Queued>()

    /// A request accepted while ``streamLimit`` streams were open: sent when one frees.
    private struct Queued {
        var headers: HPACKHeaders
        var body: ByteBuffer
        var waiter: ExchangeWaiter
        var deadline: NIODeadline
        var timeout: TimeAmount
    }

    /// What became of a request handed to the connection.
    private enum Admission {
        /// Its frames are written (not flushed).
        case written
        /// It waits for a stream under ``streamLimit``.
        case queued
        /// It was failed (its waiter has the error).
        case refused
    }

    init(state: ConnectionState, streamLimit: Int = .max) {
        self.state = state
        self.streamLimit = max(1, streamLimit)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        // After NIOHTTP2Handler's preface and SETTINGS, which it writes when the channel becomes active.
        context.writeAndFlush(
            wrapOutboundOut(
                HTTP2Frame(
                    streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: Self.connectionWindow - 65_535))), promise: nil)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failAll { _, _ in .connectionClosed(processed: false, detail: "the connection's handler was removed") }
        self.context = nil
    }

    /// Sends one request; `complete` gets the answer or a typed error, at the latest after `timeout`.
    func send(headers: HPACKHeaders, body: ByteBuffer, timeout: TimeAmount, complete: @escaping Completion) {
        guard
            admit(Queued(headers: headers, body: body, waiter: .single(complete), deadline: .now() + timeout, timeout: timeout)) == .written,
            let context
        else {
            return
        }
        // Requests sent in one turn of the event loop share a flush (one write, one TLS record), queued
        // behind the tasks already waiting (requests resumed by the answers just read); every
        // `flushBatch` requests go out at once, so the server is not left idle while a large turn runs,
        // and a request alone on its connection (no answer can bring another one) goes out at once.
        unflushed += 1
        if unflushed >= Self.flushBatch || exchanges.count == 1 {
            flushQueuedRequests()
        } else if !flushQueued {
            flushQueued = true
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.execute { bound.value.flushQueuedRequests() }
        }
    }

    /// Sends a batch of requests in one go: their frames are written back to back and flushed every
    /// `flushBatch` requests and after the last, and each answer (or typed error, at the latest after
    /// `timeout`) goes to its slot of `collector`. No closure, task or queued flush per request.
    func send(batch: [BatchRequest], timeout: TimeAmount, collector: BatchCollector) {
        let deadline = NIODeadline.now() + timeout
        for request in batch {
            let waiter = ExchangeWaiter.batch(collector, index: request.index)
            let admitted = admit(Queued(headers: request.headers, body: request.body, waiter: waiter, deadline: deadline, timeout: timeout))
            guard admitted == .written else { continue }
            unflushed += 1
            if unflushed >= Self.flushBatch { flushQueuedRequests() }
        }
        flushQueuedRequests()
    }

    /// Writes the request's frames (not flushed) when a stream is free under ``streamLimit`` and none
    /// waits before it; else queues it. A connection that takes no requests fails it with why.
    private func admit(_ request: Queued) -> Admission {
        guard context != nil else {
            request.waiter.resume(.failure(.connectionClosed(processed: false, detail: "the connection is closed")))
            return .refused
        }
        guard exchanges.count >= streamLimit || !queued.isEmpty else {
            return open(request) ? .written : .refused
        }
        // The stream ids are checked when it is written; a connection going away refuses it now.
        if case .refuse(let error) = transition({ $0.newRequest(streamIDsLeft: true) }) {
            request.waiter.resume(.failure(error))
            return .refused
        }
        queued.append(request)
        if let context, deadlineTimerAt.map({ request.deadline < $0 }) ?? true {
            setDeadlineTimer(at: request.deadline, context: context)
        }
        return .queued
    }

    /// Opens a stream for one request and writes its frames (not flushed); false when the connection
    /// cannot take it, after failing its waiter with why.
    private func open(_ request: Queued) -> Bool {
        guard let context else {
            request.waiter.resume(.failure(.connectionClosed(processed: false, detail: "the connection is closed")))
            return false
        }
        switch transition({ $0.newRequest(streamIDsLeft: nextStreamID < Self.lastStreamID) }) {
        case .send:
            break
        case .refuse(let error):
            request.waiter.resume(.failure(error))
            return false
        case .refuseAndCloseWhenIdle(let error):
            request.waiter.resume(.failure(error))
            requestEnded()
            return false
        }
        let streamID = HTTP2StreamID(nextStreamID)
        nextStreamID += 2
        exchanges[streamID] = Exchange(waiter: request.waiter, deadline: request.deadline, timeout: request.timeout)
        if deadlineTimerAt.map({ request.deadline < $0 }) ?? true {
            setDeadlineTimer(at: request.deadline, context: context)
        }
        let body = request.body
        let endStream = body.readableBytes == 0
        context.write(
            wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: request.headers, endStream: endStream)))), promise: nil)
        if !endStream {
            context.write(
                wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(body), endStream: true)))), promise: nil)
        }
        return true
    }

    /// Sends queued requests while streams are free under ``streamLimit``; their flush is shared (at the
    /// end of the read that freed the streams, or queued on the event loop).
    private func sendQueued() {
        guard !queued.isEmpty, exchanges.count < streamLimit, machine.isOpen, let context else { return }
        while exchanges.count < streamLimit, machine.isOpen, let next = queued.popFirst() {
            guard open(next) else { continue }
            unflushed += 1
            if unflushed >= Self.flushBatch { flushQueuedRequests() }
        }
        if unflushed > 0, !flushQueued {
            flushQueued = true
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.execute { bound.value.flushQueuedRequests() }
        }
    }

    private func flushQueuedRequests() {
        flushQueued = false
        guard unflushed > 0, let context, !closed else { return }
        unflushed = 0
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let streamID = frame.streamID
        guard streamID != .rootStream else {
            if case .goAway(let lastStreamID, _, let opaqueData) = frame.payload {
                receivedGoAway(.init(lastStreamID: Int(lastStreamID), opaqueData: opaqueData), context: context)
            }
            context.fireChannelRead(data)
            return
        }
        switch frame.payload {
        case .headers(let headers):
            // The answer's fields are read into a copy and stored once (one lookup, not one per field).
            guard var exchange = headers.endStream ? exchanges.removeValue(forKey: streamID) : exchanges[streamID] else { return }
            if exchange.status == nil {
                for (name, value, _) in headers.headers {
                    switch name {
                    case ":status": exchange.status = Int(value)
                    case "apns-id": exchange.apnsID = value
                    case "apns-unique-id": exchange.uniqueID = value
                    case "apns-request-id": exchange.requestID = value
                    case "apns-channel-id": exchange.channelID = value
                    default: break
                    }
                }
            }
            if headers.endStream {
                complete(exchange)
            } else {
                exchanges[streamID] = exchange
            }
        case .data(let data):
            // Flow-controlled bytes count against both windows, whether or not a request still waits for them.
            let length = data.data.readableBytes + (data.paddingBytes.map { $0 + 1 } ?? 0)
            returnConnectionWindow(context: context, adding: length)
            guard exchanges[streamID] != nil else { return }
            if case .byteBuffer(var buffer) = data.data, buffer.readableBytes > 0 {
                if exchanges[streamID]?.body == nil {
                    exchanges[streamID]?.body = buffer
                } else {
                    exchanges[streamID]?.body?.writeBuffer(&buffer)
                }
            }
            if data.endStream {
                finish(streamID)
            } else {
                returnStreamWindow(context: context, streamID, adding: length)
            }
        default:
            // RST_STREAM closes the stream: its StreamClosedEvent says why.
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Requests sent for the streams this read freed go out together.
        flushQueuedRequests()
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let created = event as? NIOHTTP2StreamCreatedEvent {
            exchanges[created.streamID]?.opened = true
        } else if let closedStream = event as? StreamClosedEvent {
            streamClosed(closedStream.streamID, reason: closedStream.reason)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A frame of one stream could not be sent or was refused: that request fails; the connection lives.
        if let streamError = error as? NIOHTTP2Errors.StreamError {
            if let closedStream = streamError.baseError as? NIOHTTP2Errors.StreamClosed {
                streamClosed(streamError.streamID, reason: closedStream.errorCode)
            } else {
                let opened = exchanges[streamError.streamID]?.opened ?? false
                fail(
                    streamError.streamID,
                    with: opened
                        ? .protocolError("stream \(streamError.streamID): \(streamError.baseError)")
                        : .connectionClosed(processed: false, detail: "the request could not be sent: \(streamError.baseError)"))
            }
            return
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        transition { $0.channelClosed() }
        failAll { streamID, exchange in
            self.closedError(processed: exchange.opened, streamID: streamID, detail: "connection closed before the answer")
        }
        context.fireChannelInactive()
    }

    // MARK: - Answers

    private func finish(_ streamID: HTTP2StreamID) {
        guard let exchange = exchanges.removeValue(forKey: streamID) else { return }
        complete(exchange)
    }

    private func complete(_ exchange: Exchange) {
        defer { requestEnded() }
        guard let status = exchange.status else {
            exchange.waiter.resume(.failure(.protocolError("the answer had no :status")))
            return
        }
        let body = exchange.body.map { Data($0.readableBytesView) } ?? Data()
        exchange.waiter.resume(
            .success(
                WireResponse(
                    status: status, apnsID: exchange.apnsID, requestID: exchange.requestID, uniqueID: exchange.uniqueID,
                    channelID: exchange.channelID, body: body
                )))
    }

    /// The stream closed before its answer ended: reset by the server (or by us), or refused.
    private func streamClosed(_ streamID: HTTP2StreamID, reason: HTTP2ErrorCode?) {
        guard let exchange = exchanges[streamID] else { return }
        // REFUSED_STREAM (also how streams above a GOAWAY's last stream id end) means not processed.
        let processed = reason != .refusedStream && exchange.opened
        let detail = reason.map { "stream reset (\($0))" } ?? "stream closed without an answer"
        fail(streamID, with: closedError(processed: processed, streamID: streamID, detail: detail))
    }

    // MARK: - Going away

    /// GOAWAY: requests above its last stream id will not be processed. Those swift-nio-http2 still holds
    /// back (waiting for the server's stream limit) are reset, so it never sends them on a connection that
    /// is going away (a protocol error that would close it under the requests still being answered), and
    /// fail as not processed, to be sent again on another connection. Sent ones above the last id are
    /// closed by swift-nio-http2 itself (their StreamClosedEvent fails them the same way).
    private func receivedGoAway(_ goAway: ConnectionStateMachine.GoAway, context: ChannelHandlerContext) {
        guard case .failUnsentRequests(let above) = transition({ $0.receivedGoAway(goAway) }) else { return }
        let heldBack = exchanges.filter { Int($0.key) > above && !$0.value.opened }.map(\.key).sorted()
        guard !heldBack.isEmpty else { return }
        for streamID in heldBack {
            fail(streamID, with: closedError(processed: false, streamID: streamID, detail: "not sent before the server's GOAWAY"))
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
        }
        context.flush()
    }

    /// A request ended: the connection closes when its stream ids are used up and it awaits no answer.
    private func requestEnded() {
        sendQueued()
        guard machine.requestEnded(awaiting: exchanges.count + queued.count) == .close, let context else { return }
        context.close(promise: nil)
    }

    /// Applies a transition of the state machine; once it has left `open`, the pool stops choosing the
    /// connection for new requests.
    @discardableResult
    private func transition<Action>(_ body: (inout ConnectionStateMachine) -> Action) -> Action {
        let wasOpen = machine.isOpen
        let action = body(&machine)
        if wasOpen, !machine.isOpen {
            state.update { $0.takesRequests = false }
            // Never sent: they go again on another connection.
            failQueued(closedError(processed: false, streamID: nil, detail: "not sent before the connection stopped taking requests"))
        }
        return action
    }

    /// Fails every request waiting for a stream under ``streamLimit``.
    private func failQueued(_ error: APNsClientError) {
        while let request = queued.popFirst() { request.waiter.resume(.failure(error)) }
    }

    // MARK: - Deadlines

    /// One timer per connection instead of one per request: it fires at the earliest deadline, fails the
    /// requests whose deadline has passed and sets itself to the next one. Answered requests leave
    /// nothing to cancel; with one timeout for all requests it fires about once per timeout.
    private func setDeadlineTimer(at deadline: NIODeadline, context: ChannelHandlerContext) {
        deadlineTimer?.cancel()
        deadlineTimerAt = deadline
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadlineTimer = context.eventLoop.scheduleTask(deadline: deadline) { bound.value.expireRequests() }
    }

    private func expireRequests() {
        deadlineTimer = nil
        deadlineTimerAt = nil
        let now = NIODeadline.now()
        var expired: [HTTP2StreamID] = []
        var next: NIODeadline?
        for (streamID, exchange) in exchanges {
            if exchange.deadline <= now {
                expired.append(streamID)
            } else if next.map({ exchange.deadline < $0 }) ?? true {
                next = exchange.deadline
            }
        }
        if queued.contains(where: { $0.deadline <= now }) {
            var waiting = CircularBuffer<Queued>(initialCapacity: queued.count)
            while let request = queued.popFirst() {
                if request.deadline <= now {
                    request.waiter.resume(.failure(.timedOut(seconds: Double(request.timeout.nanoseconds) / 1e9)))
                } else {
                    waiting.append(request)
                }
            }
            queued = waiting
        }
        for request in queued where next.map({ request.deadline < $0 }) ?? true { next = request.deadline }
        for streamID in expired { timedOut(streamID) }
        if let next, let context, !closed { setDeadlineTimer(at: next, context: context) }
    }

    private func timedOut(_ streamID: HTTP2StreamID) {
        guard let exchange = exchanges.removeValue(forKey: streamID) else { return }
        exchange.waiter.resume(.failure(.timedOut(seconds: Double(exchange.timeout.nanoseconds) / 1e9)))
        // Tell the server we gave up (a stream still waiting for the stream limit is dropped unsent).
        if let context, !closed {
            context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
        }
        requestEnded()
    }

    private func fail(_ streamID: HTTP2StreamID, with error: APNsClientError) {
        guard let exchange = exchanges.removeValue(forKey: streamID) else { return }
        exchange.waiter.resume(.failure(error))
        requestEnded()
    }

    private func failAll(_ error: (HTTP2StreamID, Exchange) -> APNsClientError) {
        failQueued(closedError(processed: false, streamID: nil, detail: "the connection closed before the request was sent"))
        let pending = exchanges
        exchanges.removeAll()
        deadlineTimer?.cancel()
        deadlineTimer = nil
        deadlineTimerAt = nil
        for (streamID, exchange) in pending {
            exchange.waiter.resume(.failure(error(streamID, exchange)))
        }
    }

    private func closedError(processed: Bool, streamID: HTTP2StreamID?, detail: String) -> APNsClientError {
        machine.failure(processed: processed, streamID: streamID.map { Int($0) }, detail: detail)
    }

    // MARK: - Inbound flow control

    private func returnConnectionWindow(context: ChannelHandlerContext, adding length: Int) {
        connectionUnreturned += length
        guard connectionUnreturned >= Self.connectionReturnThreshold, !closed else { return }
        let increment = connectionUnreturned
        connectionUnreturned = 0
        context.writeAndFlush(
            wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))), promise: nil)
    }

    private func returnStreamWindow(context: ChannelHandlerContext, _ streamID: HTTP2StreamID, adding length: Int) {
        guard var exchange = exchanges[streamID] else { return }
        exchange.unreturned += length
        let increment = exchange.unreturned >= Self.streamWindow / 2 && !closed ? exchange.unreturned : 0
        if increment > 0 { exchange.unreturned = 0 }
        // Stored before writing: a failing write can close the channel (and fail every request) within the call.
        exchanges[streamID] = exchange
        if increment > 0 {
            context.writeAndFlush(
                wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .windowUpdate(windowSizeIncrement: increment))), promise: nil)
        }
    }
}

extension ConnectionStateMachine.GoAway {
    /// A GOAWAY frame's last stream id, with the reason of APNs' JSON in its debug data when there is one.
    init(lastStreamID: Int, opaqueData: ByteBuffer?) {
        self.init(
            lastStreamID: lastStreamID,
            reason: opaqueData.flatMap { APNsErrorBody.parse($0.readableBytesView) }.map { APNsReason(rawValue: $0.reason) })
    }
}
