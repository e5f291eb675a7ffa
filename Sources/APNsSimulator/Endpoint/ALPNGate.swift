import Logging
import NIOCore
import NIOHTTP2
import NIOTLS

/// Waits for the TLS handshake. With ALPN `h2` it installs HTTP/2 and the APNs connection handler; any
/// other outcome (an HTTP/1.1-only client, no ALPN) closes the connection, as APNs refuses HTTP/1.1 at
/// connection time.
final class ALPNGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let shared: EndpointContext
    private let connectionID: Int

    init(shared: EndpointContext, connectionID: Int) {
        self.shared = shared
        self.connectionID = connectionID
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case TLSUserEvent.handshakeCompleted(let negotiated) = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard negotiated == "h2" else {
            shared.logger.debug("refused a connection without ALPN h2", metadata: [
                "alpn": "\(negotiated ?? "none")", "connection": "\(connectionID)",
            ])
            context.close(promise: nil)
            return
        }
        do {
            let configuration = shared.configuration
            var connection = NIOHTTP2Handler.ConnectionConfiguration()
            connection.initialSettings = [
                HTTP2Setting(parameter: .headerTableSize, value: 4096),
                HTTP2Setting(parameter: .maxConcurrentStreams, value: configuration.initialMaxConcurrentStreams),
                HTTP2Setting(parameter: .initialWindowSize, value: 65535),
                HTTP2Setting(parameter: .maxFrameSize, value: 16384),
                HTTP2Setting(parameter: .maxHeaderListSize, value: 8000),
            ]
            // Clients pipelining thousands of pushes must not trip NIO's DoS heuristics.
            connection.maximumConnectionGlitches = 10_000
            let operations = context.pipeline.syncOperations
            try operations.addHandler(NIOHTTP2Handler(mode: .server, connectionConfiguration: connection, streamConfiguration: .init()))
            try operations.addHandler(APNsConnectionHandler(shared: shared, connectionID: connectionID))
            context.fireUserInboundEventTriggered(event)
            operations.removeHandler(context: context, promise: nil)
        } catch {
            shared.logger.error("could not set up HTTP/2", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        shared.logger.debug("TLS connection failed", metadata: ["error": "\(error)", "connection": "\(connectionID)"])
        context.close(promise: nil)
    }
}
