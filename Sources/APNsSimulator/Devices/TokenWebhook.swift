import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An `http://host[:port]/path` URL a device posts its new tokens to (https is not supported).
struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    let host: String
    let port: Int
    let path: String
    let description: String

    /// Parses the URL; the error says what is accepted. Unless `allowRemote`, the host must be loopback.
    static func parse(_ text: String, allowRemote: Bool = false) -> Result<WebhookURL, DeviceWorldError> {
        func invalid(_ why: String) -> Result<WebhookURL, DeviceWorldError> {
            .failure(DeviceWorldError(.invalid, field: "webhookURL", "'\(text)' \(why); expected http://host[:port]/path"))
        }
        guard text.hasPrefix("http://") else {
            return invalid(text.hasPrefix("https://") ? "uses https, which the simulator's webhook client does not speak" : "is not an http:// URL")
        }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let path = rest.dropFirst(authority.count)
        var host = String(authority)
        var port = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return invalid("has an unclosed IPv6 bracket") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let parsed = Int(after.dropFirst()), (1...65535).contains(parsed) else { return invalid("has a bad port") }
                port = parsed
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let parsed = Int(authority[authority.index(after: colon)...]), (1...65535).contains(parsed) else {
                return invalid("has a bad port")
            }
            port = parsed
        }
        guard !host.isEmpty, !host.contains("@") else { return invalid("has no usable host") }
        if !allowRemote, !isLoopback(host) {
            return invalid(
                "is not on this machine; the simulator posts to localhost, 127.0.0.0/8 or [::1] unless started with --allow-remote-webhooks")
        }
        return .success(WebhookURL(host: host, port: port, path: path.isEmpty ? "/" : String(path), description: text))
    }
}

extension WebhookURL {
    /// `localhost`, an address of 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// A tiny HTTP/1.1 client that POSTs one JSON body and reads the status code (`Connection: close`).
struct TokenWebhookClient: Sendable {
    var connectTimeout: TimeAmount = .seconds(5)
    var responseTimeout: TimeAmount = .seconds(10)

    /// POSTs `body`; returns the response status or throws a readable error.
    func post(_ body: Data, to url: WebhookURL) async throws -> Int {
        let group = MultiThreadedEventLoopGroup.singleton
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                }
            }
            .connect(host: url.host, port: url.port).get()
        let promise = channel.eventLoop.makePromise(of: Int.self)
        let timeout = channel.eventLoop.scheduleTask(in: responseTimeout) {
            promise.fail(WebhookError.noResponse)
            channel.close(promise: nil)
        }
        defer { timeout.cancel() }
        try await channel.pipeline.addHandler(StatusReader(promise: promise)).get()

        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: url.path)
        head.headers.add(name: "Host", value: url.port == 80 ? url.host : "\(url.host):\(url.port)")
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: String(body.count))
        head.headers.add(name: "Connection", value: "close")
        head.headers.add(name: "User-Agent", value: "livepush-simulator-device")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        let status = try await promise.futureResult.get()
        try? await channel.close().get()
        return status
    }

    enum WebhookError: Error, CustomStringConvertible {
        case noResponse
        case closedBeforeResponse

        var description: String {
            switch self {
            case .noResponse: return "the webhook did not answer in time"
            case .closedBeforeResponse: return "the webhook closed the connection without answering"
            }
        }
    }

    private final class StatusReader: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<Int>

        init(promise: EventLoopPromise<Int>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) {
                promise.succeed(Int(head.status.code))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(WebhookError.closedBeforeResponse)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }
    }
}
