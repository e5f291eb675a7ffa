import APNsCore
import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Sends one request on its own HTTP/2 stream and reads the whole answer (headers and body), so the
/// stream always closes cleanly.
final class APNsStreamHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let requestHeaders: HPACKHeaders
    private let body: ByteBuffer
    private let promise: EventLoopPromise<WireResponse>
    private let goAwayReason: @Sendable () -> APNsReason?
    private let refusedByGoAway: @Sendable (Int) -> Bool
    private var channel: (any Channel)?
    private var sent = false
    private var headersWritten = false
    private var completed = false
    private var status: Int?
    private var apnsID: String?
    private var uniqueID: String?
    private var requestID: String?
    private var channelID: String?
    private var responseBody: ByteBuffer?

    init(
        requestHeaders: HPACKHeaders,
        body: ByteBuffer,
        promise: EventLoopPromise<WireResponse>,
        goAwayReason: @escaping @Sendable () -> APNsReason?,
        refusedByGoAway: @escaping @Sendable (Int) -> Bool = { _ in false }
    ) {
        self.requestHeaders = requestHeaders
        self.body = body
        self.promise = promise
        self.goAwayReason = goAwayReason
        self.refusedByGoAway = refusedByGoAway
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        if context.channel.isActive { send(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
        context.fireChannelActive()
    }

    private func send(context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        let headersWritten = context.eventLoop.makePromise(of: Void.self)
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        headersWritten.futureResult.whenSuccess { loopBound.value.headersWritten = true }
        context.write(wrapOutboundOut(.headers(.init(headers: requestHeaders, endStream: body.readableBytes == 0))), promise: headersWritten)
        if body.readableBytes > 0 {
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(body), endStream: true))), promise: nil)
        }
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame {
        case .headers(let headers):
            if status == nil {
                for (name, value, _) in headers.headers {
                    switch name {
                    case ":status": status = Int(value)
                    case "apns-id": apnsID = value
                    case "apns-unique-id": uniqueID = value
                    case "apns-request-id": requestID = value
                    case "apns-channel-id": channelID = value
                    default: break
                    }
                }
            }
            if headers.endStream { finish() }
        case .data(let data):
            if case .byteBuffer(var buffer) = data.data, buffer.readableBytes > 0 {
                if responseBody == nil {
                    responseBody = buffer
                } else {
                    responseBody!.writeBuffer(&buffer)
                }
            }
            if data.endStream { finish() }
        default:
            break
        }
    }

    private func finish() {
        guard !completed else { return }
        completed = true
        guard let status else {
            promise.fail(APNsClientError.protocolError("the answer had no :status"))
            return
        }
        let body = responseBody.map { Data($0.readableBytesView) } ?? Data()
        let response = WireResponse(
            status: status, apnsID: apnsID, requestID: requestID, uniqueID: uniqueID, channelID: channelID, body: body
        )
        promise.succeed(response)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(with: classify(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(with: closedError(detail: "stream closed without an answer"))
        context.fireChannelInactive()
    }

    func failFromOutside(_ error: APNsClientError) {
        fail(with: error)
    }

    private func fail(with error: APNsClientError) {
        guard !completed else { return }
        completed = true
        promise.fail(error)
    }

    private func closedError(detail: String) -> APNsClientError {
        let processed = headersWritten && !isAboveGoAway
        if let reason = goAwayReason() {
            return .goAway(reason: reason, processed: processed)
        }
        return .connectionClosed(processed: processed, detail: detail)
    }

    /// This stream's id is above the last one a GOAWAY let through: the server did not process it, even
    /// though its headers went out (a request sent while the GOAWAY was on its way). Read on the event loop.
    private var isAboveGoAway: Bool {
        guard let id = try? channel?.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) else { return false }
        return refusedByGoAway(Int(id))
    }

    private func classify(_ error: any Error) -> APNsClientError {
        if let closed = error as? NIOHTTP2Errors.StreamClosed {
            // REFUSED_STREAM (also how streams above a GOAWAY's last stream id end) means not processed.
            let processed = closed.errorCode != .refusedStream && headersWritten && !isAboveGoAway
            if let reason = goAwayReason() { return .goAway(reason: reason, processed: processed) }
            return .connectionClosed(processed: processed, detail: "stream reset (\(closed.errorCode))")
        }
        if let clientError = error as? APNsClientError { return clientError }
        return closedError(detail: "\(error)")
    }
}
