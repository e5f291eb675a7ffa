import APNsCore
import Foundation
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Sent through a connection's pipeline to make it close gracefully (GOAWAY `Shutdown`).
struct EndpointShutdownEvent: Sendable {}

/// One HTTP/2 connection of the simulated APNs, at the frame level (no child channel per stream, which
/// keeps per-request work small). Reads each stream's request whole, runs `PushRequestChecks`, hops to
/// the devices once per push, and answers as APNs does. Also owns the connection's stream limit
/// (1, then `maxConcurrentStreams` after the first accepted push), GOAWAY, idle timeout and faults.
final class APNsConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    struct PendingRequest {
        var headers: HPACKHeaders
        var body: ByteBuffer?
        var bodyBytes = 0
        var started: NIODeadline
    }

    /// Bytes of body kept per request: enough to tell any request over the largest limit apart.
    private static let bodyKeepLimit = 5120 + 1
    private static let windowTarget = 65535
    private static let forcedCloseDelay = TimeAmount.seconds(5)

    let shared: EndpointContext
    var context: ChannelHandlerContext?
    private var pending: [HTTP2StreamID: PendingRequest] = [:]
    /// Streams opened and not answered yet (pending or in flight).
    var unanswered: Set<HTTP2StreamID> = []
    /// When the client reset streams it had not had an answer for, within the configured window.
    private var unansweredResets: [NIODeadline] = []
    var auth: ConnectionAuthentication
    private var raisedStreamLimit = false
    private var answeredStreams = 0
    private var inFlight = 0
    private var highestStreamID = HTTP2StreamID.rootStream
    private var goingAway = false
    private var flushScheduled = false
    private var worldBatch: [EndpointWorkItem] = []
    private var worldCallbacks: [((PushVerdict?) -> Void)?] = []
    private var worldBatchScheduled = false
    var closed = false
    private var lastActivity = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?
    var logger: Logger

    /// - Parameter clientCertificate: the certificate verified in the TLS handshake; nil: token authentication.
    init(shared: EndpointContext, connectionID: Int, clientCertificate: ClientCertificate? = nil) {
        self.shared = shared
        self.auth = ConnectionAuthentication(clientCertificate: clientCertificate)
        var logger = shared.logger
        logger[metadataKey: "connection"] = "\(connectionID)"
        self.logger = logger
    }

    // MARK: - Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        scheduleIdleCheck()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closed = true
        idleCheck?.cancel()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        idleCheck?.cancel()
        pending.removeAll()
        logger.debug("connection closed")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is NIOHTTP2Errors.StreamError || error is NIOHTTP2Errors.NoSuchStream { return }
        logger.debug("connection error, closing", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    // MARK: - Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        lastActivity = .now()
        switch frame.payload {
        case .headers(let headers):
            let streamID = frame.streamID
            if pending[streamID] == nil {
                // A new request (trailers of a pending one are ignored).
                pending[streamID] = PendingRequest(headers: headers.headers, started: lastActivity)
                unanswered.insert(streamID)
                if streamID > highestStreamID { highestStreamID = streamID }
            }
            if headers.endStream { complete(streamID) }
        case .data(let data):
            let streamID = frame.streamID
            guard var request = pending[streamID] else { return }
            if case .byteBuffer(var bytes) = data.data {
                request.bodyBytes += bytes.readableBytes
                if request.body == nil {
                    request.body = bytes
                } else if request.body!.readableBytes < Self.bodyKeepLimit {
                    request.body!.writeBuffer(&bytes)
                }
            }
            pending[streamID] = request
            if data.endStream { complete(streamID) }
        case .rstStream:
            if unanswered.remove(frame.streamID) != nil { countUnansweredReset() }
        default:
            break
        }
    }

    /// A reset of a stream before its answer. Resets after the answer are normal client behaviour
    /// (async-http-client resets every stream whose body it does not read) and are not counted; many
    /// resets of unanswered streams in a short time are the HTTP/2 rapid-reset attack, answered with
    /// GOAWAY ENHANCE_YOUR_CALM.
    private func countUnansweredReset() {
        let configuration = shared.configuration
        guard let limit = configuration.maxUnansweredResets else { return }
        let now = NIODeadline.now()
        let window = TimeAmount.nanoseconds(Int64(configuration.unansweredResetWindow * 1_000_000_000))
        unansweredResets.removeAll { now - $0 > window }
        unansweredResets.append(now)
        if unansweredResets.count > limit {
            logger.debug("too many resets of unanswered streams", metadata: ["resets": "\(unansweredResets.count)"])
            goAway(reasonText: configuration.unansweredResetReason, errorCode: .enhanceYourCalm)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let update as NIOHTTP2WindowUpdatedEvent:
            // Without a multiplexer the handler keeps the inbound windows open itself, so a client can
            // always send its whole body.
            guard let window = update.inboundWindowSize, window <= Self.windowTarget / 2 else { break }
            guard update.streamID == .rootStream || pending[update.streamID] != nil else { break }
            let frame = HTTP2Frame(streamID: update.streamID, payload: .windowUpdate(windowSizeIncrement: Self.windowTarget - window))
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        case let closedStream as StreamClosedEvent:
            pending[closedStream.streamID] = nil
            unanswered.remove(closedStream.streamID)
        case is EndpointShutdownEvent:
            goAway(reason: .shutdown)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: - Requests

    private func complete(_ streamID: HTTP2StreamID) {
        guard let request = pending.removeValue(forKey: streamID), let context else { return }
        let fields = RequestHeaderFields(request.headers)
        let pathToken = PushRequestChecks.pathToken(fields.path)
        let faults = shared.faults.decide(token: pathToken?.lowercased())
        if faults.resetConnection {
            logger.debug("fault: connection reset")
            resetConnection(context: context)
            return
        }
        inFlight += 1
        if faults.latencyMilliseconds > 0 {
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(faults.latencyMilliseconds))) {
                self.process(streamID, request, fields, pathToken: pathToken, faults: faults)
            }
        } else {
            process(streamID, request, fields, pathToken: pathToken, faults: faults)
        }
    }

    private func process(
        _ streamID: HTTP2StreamID, _ request: PendingRequest, _ fields: RequestHeaderFields,
        pathToken: String?, faults: FaultDecision
    ) {
        guard context != nil, !closed else { return }
        let configuration = shared.configuration
        let receivedAt = configuration.clock.now()
        let requestedID = fields.apnsID.flatMap {
            APNsID.parse($0, allowUppercase: configuration.acceptUppercaseAPNsID) != nil ? $0 : nil
        }
        let apnsID = requestedID ?? APNsID.generate()
        let body = request.body.map { Data($0.readableBytesView) } ?? Data()
        let environment = shared.environment(authority: fields.serverName)
        let headers = Self.loggedHeaders(request.headers)
        var exchange = PushExchange(
            method: fields.method ?? "", path: fields.path ?? "", token: pathToken, headers: headers,
            payload: body, status: 0, apnsID: apnsID, apnsUniqueID: nil, reason: nil, receivedAt: receivedAt,
            latencySeconds: 0
        )

        if let injected = faults.response {
            answer(
                streamID, status: injected.status, apnsID: apnsID, rejection: Rejection(status: injected.status, reason: injected.reason),
                exchange: exchange, started: request.started, goAway: faults.goAway)
            return
        }
        if shared.role == .channelManagement {
            processManagement(streamID, request, fields, body: body, exchange: exchange, environment: environment, goAway: faults.goAway)
            return
        }
        if BroadcastRequestChecks.isBroadcastPath(fields.path) {
            processBroadcast(streamID, request, fields, body: body, exchange: exchange, environment: environment, goAway: faults.goAway)
            return
        }

        let checked: (push: ReceivedPush, verified: ConnectionAuthentication.Verified)
        do {
            checked = try shared.checks.check(
                fields, body: body, apnsID: apnsID, environment: environment, receivedAt: receivedAt,
                headers: headers, auth: &auth
            )
        } catch {
            answer(
                streamID, status: error.status, apnsID: apnsID, rejection: error, exchange: exchange,
                started: request.started, goAway: faults.goAway)
            return
        }

        exchange.apnsUniqueID = environment == .sandbox ? UUID().lowercased : nil
        exchange.latencySeconds = Self.seconds(since: request.started)
        let verified = checked.verified
        let uniqueID = exchange.apnsUniqueID
        enqueue(.deliver(checked.push, exchange)) { verdict in
            switch verdict {
            case .accepted, nil:  // a delivery always has a verdict; nil only answers .record items
                self.accepted(verified)
                self.writeAnswer(streamID, status: 200, apnsID: apnsID, uniqueID: uniqueID, rejection: nil)
                self.shared.metrics.count(status: 200, reason: nil)
            case .rejected(let reason, let since):
                let rejection = Rejection(reason, timestamp: since)
                self.writeAnswer(streamID, status: rejection.status, apnsID: apnsID, uniqueID: nil, rejection: rejection)
                self.shared.metrics.count(status: rejection.status, reason: rejection.reason)
            }
            self.finished(goAway: faults.goAway)
        }
    }

    /// Queues work for the devices. Everything queued during one event-loop tick goes to the
    /// `DeviceWorld` actor in a single hop (one task), and the verdicts come back in one callback.
    func enqueue(_ item: EndpointWorkItem, then: ((PushVerdict?) -> Void)? = nil) {
        worldBatch.append(item)
        worldCallbacks.append(then)
        guard !worldBatchScheduled, let context else { return }
        worldBatchScheduled = true
        context.eventLoop.assumeIsolated().execute { self.sendWorldBatch() }
    }

    private func sendWorldBatch() {
        worldBatchScheduled = false
        guard let context, !worldBatch.isEmpty else { return }
        let items = worldBatch
        let callbacks = worldCallbacks
        worldBatch.removeAll(keepingCapacity: true)
        worldCallbacks.removeAll(keepingCapacity: true)
        let world = shared.world
        let promise = context.eventLoop.makePromise(of: [PushVerdict?].self)
        promise.completeWithTask { await world.process(items) }
        promise.futureResult.assumeIsolated().whenSuccess { verdicts in
            for (callback, verdict) in zip(callbacks, verdicts) { callback?(verdict) }
        }
    }

    /// Answers an error found before the devices: records it, then answers and counts it. The push
    /// log holds every exchange before its answer leaves, as it does for deliveries, so a client that
    /// has its answer finds the request in the log.
    private func answer(
        _ streamID: HTTP2StreamID, status: Int, apnsID: String, rejection: Rejection, exchange: PushExchange,
        started: NIODeadline, goAway: GoAwayFault?
    ) {
        var exchange = exchange
        exchange.status = status
        exchange.reason = APNsReason(rawValue: rejection.reason)
        exchange.latencySeconds = Self.seconds(since: started)
        logger.trace("rejected", metadata: ["status": "\(status)", "reason": "\(rejection.reason)"])
        enqueue(.record(exchange)) { _ in
            self.writeAnswer(streamID, status: status, apnsID: apnsID, uniqueID: nil, rejection: rejection)
            self.shared.metrics.count(status: status, reason: rejection.reason)
            self.finished(goAway: goAway)
        }
    }

    func finished(goAway fault: GoAwayFault?) {
        inFlight -= 1
        answeredStreams += 1
        if let fault, answeredStreams >= fault.afterStreams {
            goAway(reasonText: fault.reason)
        }
        if goingAway, inFlight == 0 { closeAfterFlush() }
    }

    private func writeAnswer(_ streamID: HTTP2StreamID, status: Int, apnsID: String, uniqueID: String?, rejection: Rejection?) {
        unanswered.remove(streamID)
        guard let context, !closed else { return }
        var headers = HPACKHeaders()
        headers.reserveCapacity(4)
        headers.add(name: ":status", value: String(status))
        if rejection != nil { headers.add(name: "content-type", value: "application/json") }
        headers.add(name: "apns-id", value: apnsID)
        if let uniqueID { headers.add(name: "apns-unique-id", value: uniqueID) }
        let head = HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: rejection == nil)))
        context.write(wrapOutboundOut(head), promise: nil)
        if let rejection {
            let json = ErrorBodyJSON.encode(reason: rejection.reason, timestamp: rejection.timestamp)
            let buffer = context.channel.allocator.buffer(string: json)
            let data = HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(buffer), endStream: true)))
            context.write(wrapOutboundOut(data), promise: nil)
        }
        scheduleFlush()
    }

    /// Answers completing in the same event-loop tick share one flush (one TLS record, one syscall).
    func scheduleFlush() {
        guard !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute {
            self.flushScheduled = false
            self.context?.flush()
        }
    }

    // MARK: - Connection control

    /// A request the endpoint accepted: the connection keeps the credential that passed, and may open more
    /// streams.
    func accepted(_ verified: ConnectionAuthentication.Verified) {
        auth.bind(verified)
        raiseStreamLimit()
    }

    /// After the first accepted push, the stream limit goes from 1 to `maxConcurrentStreams`.
    private func raiseStreamLimit() {
        guard !raisedStreamLimit, let context else { return }
        raisedStreamLimit = true
        let configuration = shared.configuration
        guard configuration.maxConcurrentStreams != configuration.initialMaxConcurrentStreams else { return }
        let settings: HTTP2Settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: configuration.maxConcurrentStreams)]
        context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))), promise: nil)
    }

    private func goAway(reason: APNsReason) { goAway(reasonText: reason.rawValue) }

    /// Sends GOAWAY with `{"reason": …}` as debug data, then closes once the streams in flight are answered.
    private func goAway(reasonText: String, errorCode: HTTP2ErrorCode = .noError) {
        guard !goingAway, !closed, let context else { return }
        goingAway = true
        logger.debug("GOAWAY", metadata: ["reason": "\(reasonText)"])
        let debugData = context.channel.allocator.buffer(string: ErrorBodyJSON.encode(reason: reasonText, timestamp: nil))
        let frame = HTTP2Frame(
            streamID: .rootStream,
            payload: .goAway(lastStreamID: highestStreamID, errorCode: errorCode, opaqueData: debugData)
        )
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        if inFlight == 0 {
            closeAfterFlush()
        } else {
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.forcedCloseDelay) { self.closeAfterFlush() }
        }
    }

    /// Closes gracefully once, after writing out every answer.
    private func closeAfterFlush() {
        guard !closed, let context else { return }
        closed = true
        context.flush()
        context.close(promise: nil)
    }

    /// Closes the TCP connection at once: no GOAWAY, no TLS close_notify, RST where the OS allows.
    private func resetConnection(context: ChannelHandlerContext) {
        closed = true
        let channel = context.channel
        let closeRaw = {
            if let raw = try? channel.pipeline.syncOperations.context(handlerType: RawCloseHandler.self) {
                raw.close(promise: nil)
            } else {
                channel.close(promise: nil)
            }
        }
        guard let provider = channel as? any SocketOptionProvider else {
            closeRaw()
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in closeRaw() }
    }

    private func scheduleIdleCheck() {
        guard let timeout = shared.configuration.idleTimeout, let context else { return }
        let amount = TimeAmount.nanoseconds(Int64(timeout * 1_000_000_000))
        idleCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: lastActivity + amount) {
            guard !self.closed else { return }
            if NIODeadline.now() - self.lastActivity >= amount {
                self.goAway(reason: .idleTimeout)
            } else {
                self.scheduleIdleCheck()
            }
        }
    }

    // MARK: - Helpers

    /// The request's headers for the push log, with the provider token replaced by `bearer …`.
    static func loggedHeaders(_ headers: HPACKHeaders) -> [HeaderField] {
        var out: [HeaderField] = []
        out.reserveCapacity(headers.count)
        for (name, value, _) in headers {
            out.append(HeaderField(name: name, value: name == "authorization" ? "bearer …" : value))
        }
        return out
    }

    static func seconds(since start: NIODeadline) -> Double {
        Double((NIODeadline.now() - start).nanoseconds) / 1_000_000_000
    }
}
