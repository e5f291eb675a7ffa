import APNsCore
import Foundation
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// Watches the connection-level frames (stream 0): SETTINGS (the stream limit), GOAWAY (logged with APNs'
/// JSON reason; `APNsRequestsHandler` acts on it) and PING acks, and sends PINGs when the connection is idle.
final class ConnectionObserver: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let state: ConnectionState
    private let ready: EventLoopPromise<Void>
    private let idlePingInterval: TimeAmount
    /// The client's own limit of streams per connection: the pool sees the lower of it and the server's.
    private let streamLimit: Int
    private let logger: Logger
    private var sawSettings = false
    private var awaitingPingAck = false
    private var lastActivity = NIODeadline.now()
    private var pingTask: RepeatedTask?

    init(state: ConnectionState, ready: EventLoopPromise<Void>, idlePingInterval: TimeAmount, streamLimit: Int = .max, logger: Logger) {
        self.state = state
        self.ready = ready
        self.idlePingInterval = idlePingInterval
        self.streamLimit = max(1, streamLimit)
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let interval = idlePingInterval
        pingTask = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            let (observer, context) = loopBound.value
            observer.checkIdle(context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pingTask?.cancel()
    }

    /// Called by the stream handlers' owner on every request, so a busy connection is never pinged.
    func noteActivity() { lastActivity = .now() }

    private func checkIdle(context: ChannelHandlerContext) {
        if awaitingPingAck {
            logger.warning("APNs connection did not answer a PING; closing it")
            context.close(promise: nil)
            return
        }
        guard state.snapshot.inFlight == 0, NIODeadline.now() - lastActivity >= idlePingInterval else { return }
        awaitingPingAck = true
        let ping = HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: UInt64.random(in: 0...UInt64.max)), ack: false))
        context.writeAndFlush(wrapOutboundOut(ping), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        lastActivity = .now()
        switch frame.payload {
        case .settings(.settings(let settings)):
            for setting in settings where setting.parameter == .maxConcurrentStreams {
                state.update { $0.maximumConcurrentStreams = min(streamLimit, max(1, setting.value)) }
                logger.debug("APNs stream limit is now \(setting.value)")
            }
            if !sawSettings {
                sawSettings = true
                ready.succeed(())
            }
        case .goAway(let lastStreamID, let errorCode, let opaqueData):
            // APNsRequestsHandler, next in the pipeline, moves the connection's state machine.
            let reason = ConnectionStateMachine.GoAway(lastStreamID: Int(lastStreamID), opaqueData: opaqueData).reason
            logger.info(
                "APNs sent GOAWAY",
                metadata: [
                    "reason": "\(reason?.rawValue ?? "none")", "code": "\(errorCode)", "lastStreamID": "\(lastStreamID)",
                ])
        case .ping(_, ack: true):
            awaitingPingAck = false
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Once the server's SETTINGS came, the handshake is long done: the events that follow (several per
        // request, from swift-nio-http2) pass without a dynamic cast.
        if !sawSettings, case TLSUserEvent.handshakeCompleted(let negotiatedProtocol) = event, negotiatedProtocol != "h2" {
            ready.fail(
                APNsClientError.tlsFailed(
                    endpoint: "\(context.channel.remoteAddress.map { "\($0)" } ?? "server")",
                    detail: "the server did not agree to HTTP/2 (ALPN h2)"))
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // One stream's error fails that request (APNsRequestsHandler); the connection and the others go on.
        if error is NIOHTTP2Errors.StreamError {
            context.fireErrorCaught(error)
            return
        }
        ready.fail(error)
        logger.debug("APNs connection error: \(error)")
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        ready.fail(APNsClientError.connectionClosed(processed: false, detail: "the connection closed during set-up"))
        pingTask?.cancel()
        context.fireChannelInactive()
    }
}
