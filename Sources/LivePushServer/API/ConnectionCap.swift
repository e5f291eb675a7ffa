import APNsCore
import NIOCore
import Synchronization

/// The most connections the API holds open at once (`--max-connections`). Each idle connection costs
/// memory (5,000 idle ones took 52 MB) and a file descriptor, and the descriptors the store and the APNs
/// client need come from the same per-process limit: without a cap, a client that opens connections and
/// sends nothing could starve the server of both.
final class ConnectionCap: Sendable {
    let maximum: Int
    private let metrics: ServerMetrics
    private let open = Mutex(0)

    init(maximum: Int, metrics: ServerMetrics) {
        self.maximum = maximum
        self.metrics = metrics
    }

    /// Counts a new connection in when there is room; false (counted as refused) when the cap is reached.
    func admit() -> Bool {
        let admitted = open.withLock { open -> Int? in
            guard open < maximum else { return nil }
            open += 1
            return open
        }
        guard let admitted else {
            metrics.recordConnectionRefused()
            return false
        }
        metrics.recordOpenConnections(admitted)
        return true
    }

    /// A counted connection closed.
    func release() {
        metrics.recordOpenConnections(
            open.withLock { open in
                open -= 1
                return open
            })
    }

    /// The handler of one connection: the first in its pipeline after the HTTP decoder, it counts the
    /// connection when it becomes active (as it is accepted, before anything of it is read) and closes it
    /// at once when the cap is reached.
    func handler() -> Handler { Handler(cap: self) }

    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        private let cap: ConnectionCap
        private var state = State.new

        private enum State { case new, counted, refused, released }

        init(cap: ConnectionCap) { self.cap = cap }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admit(context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context: context)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // A refused connection is closing: nothing of it reaches the routes.
            guard state != .refused else { return }
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            release()
        }

        private func admit(context: ChannelHandlerContext) {
            guard state == .new else { return }
            if cap.admit() {
                state = .counted
            } else {
                state = .refused
                context.close(promise: nil)
            }
        }

        private func release() {
            guard state == .counted else { return }
            state = .released
            cap.release()
        }
    }
}
