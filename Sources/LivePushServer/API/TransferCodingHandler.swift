import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Refuses a request whose `Transfer-Encoding` is anything but `chunked` alone, before any route sees it:
/// 400 naming the header, then the connection is closed (what follows the header cannot be trusted to be
/// framed as the client meant). The HTTP/1 decoder frames a body by its last coding, so `gzip, chunked`
/// was taken with the gzip silently ignored; the server decodes no content coding, and a proxy that
/// reads such a request differently from this server is the start of request smuggling.
final class TransferCodingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// Set once a request was refused: nothing more of the connection is passed on.
    private var refused = false
    /// The HTTP version of the request head read last (``VersionObserver`` sets it before this handler
    /// sees the head: the HTTP types this handler reads carry no version).
    fileprivate var version = HTTPVersion.http1_1

    /// Puts a ``VersionObserver`` where the HTTP/1 request heads are decoded, ahead of this handler.
    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        let anchor: (any ChannelHandler)? =
            (try? pipeline.handler(type: HTTPServerPipelineHandler.self))
            ?? (try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self))
        if let anchor { try? pipeline.addHandler(VersionObserver(owner: self), position: .after(anchor)) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            let codings = head.headerFields[values: .transferEncoding]
            let refusal: String? = version == .http1_0 && !codings.isEmpty ? Self.http10Refusal : Self.refusal(codings)
            if let refusal {
                refused = true
                respond(refusal, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing (HTTP/1.0 has no transfer codings).
    static let http10Refusal =
        "HTTP/1.0 has no transfer codings: a request with Transfer-Encoding is faulty framing (RFC 9112 §6.1); send Content-Length, or use HTTP/1.1"

    /// Records the version of each HTTP/1 request head for the ``TransferCodingHandler`` of its connection.
    final class VersionObserver: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        private let owner: TransferCodingHandler

        init(owner: TransferCodingHandler) { self.owner = owner }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) { owner.version = head.version }
            context.fireChannelRead(data)
        }
    }

    /// Why the codings are refused; nil when there are none (a Content-Length body) or only `chunked`.
    static func refusal(_ values: [String]) -> String? {
        guard !values.isEmpty else { return nil }
        let codings = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard codings != ["chunked"] else { return nil }
        return
            "'Transfer-Encoding: \(values.joined(separator: ", "))' is not accepted; the only transfer coding is chunked (or send Content-Length), and bodies are plain JSON"
    }

    private func respond(_ message: String, context: ChannelHandlerContext) {
        let error = APIError(.badRequest, field: "Transfer-Encoding", rule: "transferEncoding", message)
        let body = (try? APIResponse.encoder().encode(error.body)) ?? Data()
        let head = HTTPResponse(
            status: .badRequest,
            headerFields: [
                .contentType: "application/json; charset=utf-8", .contentLength: String(body.count), .connection: "close",
                .xContentTypeOptions: "nosniff", .cacheControl: "no-store",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
