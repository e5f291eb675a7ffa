import Foundation
import HTTPTypes
import NIOCore
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

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data), let refusal = Self.refusal(head.headerFields[values: .transferEncoding]) {
            refused = true
            respond(refusal, context: context)
            return
        }
        context.fireChannelRead(data)
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
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
