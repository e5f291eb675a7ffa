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
///
/// Every request moves the deadline two or three times; one timer per connection checks it. The timer is
/// not rescheduled for each move: when it runs and the deadline has moved later, it schedules itself for
/// the new one (a keep-alive connection reschedules once per header timeout, not per request); only a
/// deadline earlier than the timer's moves the timer.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadlines: RequestDeadlines
    /// When the connection is closed unless a request or an answer moves it; nil while none runs.
    private var deadline: NIODeadline?
    /// The timer and when it runs.
    private var timer: (task: Scheduled<Void>, at: NIODeadline)?
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
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            // A pipelined request's body waits while the one before it is served: its deadline starts when
            // it is the one being served, not while the server itself is not reading.
            if unanswered == 1 { arm(deadlines.body, context: context) } else { deadline = nil }
        case .body: break
        case .end:
            // Answered already (an early error: the server discards the rest of the body)? Then the next
            // request's header deadline runs from here; else nothing runs until the answer.
            if unanswered == 0 { arm(deadlines.header, context: context) } else { deadline = nil }
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
        let deadline = context.eventLoop.now + amount
        self.deadline = deadline
        // A timer that runs no later than the deadline finds it then and waits on for the rest.
        if let timer, timer.at <= deadline { return }
        schedule(at: deadline, channel: context.channel)
    }

    private func schedule(at time: NIODeadline, channel: any Channel) {
        timer?.task.cancel()
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        let task = channel.eventLoop.scheduleTask(deadline: time) { handler.value.timerRan(channel: channel) }
        timer = (task, time)
    }

    private func timerRan(channel: any Channel) {
        timer = nil
        guard let deadline else { return }
        if deadline <= channel.eventLoop.now {
            channel.close(promise: nil)
        } else {
            schedule(at: deadline, channel: channel)
        }
    }

    private func stop() {
        deadline = nil
        timer?.task.cancel()
        timer = nil
    }
}
