import NIOCore
import NIOHTTPTypes

/// How long a client of the API may take, per connection: a request's header must be complete within
/// `header` of the connection opening (or of the previous answer), and its body within `body` of the
/// header. Absolute deadlines: a client that trickles a byte every few seconds (slowloris) is closed all
/// the same, which an idle timeout alone would not do.
package struct RequestDeadlines: Sendable, Hashable {
    package var header: TimeAmount
    package var body: TimeAmount

    package init(header: TimeAmount = .seconds(30), body: TimeAmount = .seconds(60)) {
        self.header = header
        self.body = body
    }
}

/// Enforces `RequestDeadlines` on one HTTP/1.1 connection: closes it when a deadline passes.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadlines: RequestDeadlines
    private var timer: Scheduled<Void>?
    /// Requests whose header arrived and whose answer is not complete yet.
    private var unanswered = 0

    init(deadlines: RequestDeadlines) {
        self.deadlines = deadlines
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(deadlines.header, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(deadlines.header, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            // A pipelined request's body waits while the one before it is served: its deadline starts when
            // it is the one being served, not while the server itself is not reading.
            if unanswered == 1 { arm(deadlines.body, context: context) } else { disarm() }
        case .body: break
        case .end:
            // Answered already (an early error: the server discards the rest of the body)? Then the next
            // request's header deadline runs from here; else nothing runs until the answer.
            if unanswered == 0 { arm(deadlines.header, context: context) } else { disarm() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The last answer is out: the next request's header has its own deadline (keep-alive).
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 { arm(deadlines.header, context: context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ amount: TimeAmount, context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: amount) {
            channel.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
