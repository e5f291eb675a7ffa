import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PushStore

/// POSTs one stored webhook event, signed, to the webhook URL: one HTTP/1.1 connection per POST, on
/// SwiftNIO.
///
/// Not URLSession, nor async-http-client: both resolve the host themselves, so the address checked
/// would not be the address connected to (a second DNS answer could point elsewhere), and URLSession
/// follows redirects (a 307 lost the body, a 302 became a GET, and a redirect could point anywhere).
/// Here the host is resolved once, every address is checked against ``WebhookTargetPolicy``, the
/// connection goes to a checked address, and a 3xx is a failed attempt like any other non-2xx.
final class WebhookPoster: Sendable {
    /// Where the POSTs go, taken apart once.
    struct Target: Sendable {
        var isTLS: Bool
        /// The host without brackets: a name, or a literal IPv4 or IPv6 address.
        var host: String
        var port: Int
        /// Path and query, percent-encoded as given.
        var requestURI: String
        /// The `Host` header.
        var hostHeader: String
        /// The TLS server name: the host, unless it is a literal address (which SNI cannot carry; the
        /// certificate is then checked against the address).
        var serverName: String?

        init?(url: URL) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                var host = components.host, !host.isEmpty
            else { return nil }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            isTLS = scheme == "https"
            self.host = host
            let defaultPort = isTLS ? 443 : 80
            port = components.port ?? defaultPort
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            requestURI = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            let isLiteral = (try? SocketAddress(ipAddress: host, port: 0)) != nil
            let shownHost = host.contains(":") ? "[\(host)]" : host
            hostHeader = port == defaultPort ? shownHost : "\(shownHost):\(port)"
            serverName = isLiteral ? nil : host
        }
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let target: Target?
    private let secret: String
    private let timeout: TimeInterval
    private let allowPrivateTargets: Bool
    private let tls: Result<NIOSSLContext, any Error>?
    private let metrics: ServerMetrics
    private let logger: Logger

    init(url: URL, secret: String, timeout: TimeInterval, allowPrivateTargets: Bool, metrics: ServerMetrics, logger: Logger) {
        target = Target(url: url)
        self.secret = secret
        self.timeout = timeout
        self.allowPrivateTargets = allowPrivateTargets
        self.metrics = metrics
        self.logger = logger
        // The system's trust store, as URLSession used.
        tls = target?.isTLS == true ? Result { try NIOSSLContext(configuration: .makeClientConfiguration()) } : nil
    }

    /// POSTs `delivery` signed at `date`; nil when the webhook answered 2xx, else what went wrong.
    func post(_ delivery: WebhookDelivery, at date: Date) async -> String? {
        guard let target else { return "the webhook URL is not an http(s) URL with a host" }
        let timestamp = Int(date.timeIntervalSince1970.rounded(.down))
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: target.hostHeader)
        headers.add(name: "User-Agent", value: "livepush-webhook")
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(delivery.body.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: WebhookSignature.eventIDHeader, value: delivery.id.uuidString.lowercased())
        headers.add(
            name: WebhookSignature.signatureHeader,
            value: WebhookSignature.value(secret: secret, timestamp: timestamp, body: delivery.body))
        let timeout = self.timeout
        let request = headers
        do {
            let (status, location) = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                group.addTask { try await self.exchange(target, headers: request, body: delivery.body) }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                    throw Failure(description: "no answer within \(DurationText.text(timeout))")
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
            if (200..<300).contains(status) { return nil }
            if (300..<400).contains(status) {
                // Following it would lose the body (307), turn the POST into a GET (302), or send the
                // event wherever the receiver says: the receiver must answer at the configured URL.
                let to = location.map { " to \(String($0.prefix(200)))" } ?? ""
                return "HTTP \(status): a redirect\(to), not followed; the webhook URL must answer 2xx itself"
            }
            return "HTTP \(status)"
        } catch {
            return "\(error)"
        }
    }

    /// Resolves, checks, connects and POSTs; the answer's status and `Location`.
    private func exchange(_ target: Target, headers: HTTPHeaders, body: Data) async throws -> (Int, String?) {
        let addresses = try await WebhookResolver.resolve(host: target.host, port: target.port)
        if !allowPrivateTargets {
            // Every address, not only the first: a name that resolves to a public and a private address
            // would otherwise reach the private one whenever the public one does not answer.
            for address in addresses {
                if let range = WebhookTargetPolicy.refusal(for: address) {
                    metrics.recordWebhookRefusedTarget()
                    logger.warning(
                        "webhook target refused",
                        metadata: [
                            "host": "\(target.host)", "address": "\(address.ipAddress ?? "?")", "range": "\(range)",
                        ])
                    throw Failure(
                        description: "refused: '\(target.host)' resolves to \(address.ipAddress ?? "?"), a \(range) address; "
                            + "set --webhook-allow-private-targets to POST there")
                }
            }
        }
        var lastError: (any Error)?
        for address in addresses {
            let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
            do {
                channel = try await connect(to: address, target: target)
            } catch {
                lastError = error
                continue
            }
            return try await channel.executeThenClose { inbound, outbound in
                var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: target.requestURI)
                head.headers = headers
                try await outbound.write(.head(head))
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
                try await outbound.write(.end(nil))
                for try await part in inbound {
                    guard case .head(let response) = part else { continue }
                    if response.status.code < 200 { continue }  // 1xx: the final answer follows
                    return (Int(response.status.code), response.headers.first(name: "Location"))
                }
                throw Failure(description: "the connection closed before an answer")
            }
        }
        throw Failure(description: "cannot connect to \(target.host):\(target.port): \(lastError.map { "\($0)" } ?? "no address")")
    }

    private func connect(to address: SocketAddress, target: Target) async throws
        -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    {
        let context = try tls?.get()
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(Int64(timeout * 1000)))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(to: address) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: context, serverHostname: target.serverName))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
    }
}
