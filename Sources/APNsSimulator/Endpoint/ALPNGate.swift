import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// Waits for the TLS handshake. With ALPN `h2`, or no ALPN at all (HTTP/2 with prior knowledge, which
/// APNs accepts), it installs HTTP/2 and the APNs connection handler; a client that negotiates another
/// protocol (HTTP/1.1) is closed, as APNs refuses HTTP/1.1 at connection time.
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
        // APNs speaks HTTP/2 to clients that offer no ALPN at all (prior knowledge: aioapns, Pushy), and
        // refuses clients that negotiate anything else (HTTP/1.1).
        let acceptsPriorKnowledge = negotiated == nil && shared.configuration.acceptConnectionsWithoutALPN
        guard negotiated == "h2" || acceptsPriorKnowledge else {
            shared.logger.debug(
                "refused a connection without ALPN h2",
                metadata: [
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
            // Clients such as async-http-client reset every stream whose body they do not read, after
            // the answer: APNs does not drop them for it, so NIO's reset-rate limit is lifted and
            // APNsConnectionHandler guards only against resets of streams it has not answered yet.
            var streams = NIOHTTP2Handler.StreamConfiguration()
            streams.streamResetFrameRateLimit.maximumCount = Int(Int32.max)
            streams.streamErrorRateLimit.maximumCount = Int(Int32.max)
            let operations = context.pipeline.syncOperations
            try operations.addHandler(NIOHTTP2Handler(mode: .server, connectionConfiguration: connection, streamConfiguration: streams))
            try operations.addHandler(
                APNsConnectionHandler(
                    shared: shared, connectionID: connectionID, clientCertificate: Self.clientCertificate(context)
                ))
            context.fireUserInboundEventTriggered(event)
            operations.removeHandler(context: context, promise: nil)
        } catch {
            shared.logger.error("could not set up HTTP/2", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    /// The client certificate the TLS handshake verified, when the client presented one.
    private static func clientCertificate(_ context: ChannelHandlerContext) -> ClientCertificate? {
        guard let certificate = try? context.pipeline.syncOperations.nioSSL_peerCertificate(),
            let der = try? certificate.toDERBytes()
        else { return nil }
        return ClientCertificate(der: der)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        shared.logger.debug("TLS connection failed", metadata: ["error": "\(error)", "connection": "\(connectionID)"])
        context.close(promise: nil)
    }
}
