import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PushStore
import Synchronization

/// POSTs one stored webhook event, signed, to the webhook URL, with async-http-client.
///
/// The address checked is the address connected to. AHC would resolve the host itself, so a second
/// DNS answer (DNS rebinding) could point its connection elsewhere than the check; here the host is
/// resolved once with ``WebhookResolver``, every address is checked against ``WebhookTargetPolicy``,
/// and AHC's `dnsOverride` maps the URL's host to a checked address: AHC connects there, while it
/// still sends the URL's `Host` and validates TLS (and sends SNI) for the URL's host name. Redirects
/// are disallowed, so a 3xx comes back as an answer: a failed attempt like any other non-2xx.
///
/// `dnsOverride` is a client's setting, so there is one `HTTPClient` per checked address in use, kept
/// across POSTs (a client builds its TLS context once: reading the trust store takes about 25 ms). A
/// client is shut down once its address has left the host's latest resolution and its last POST is
/// done, the others when ``withPoster(url:secret:timeout:allowPrivateTargets:metrics:logger:_:)``
/// ends: no client outlives the poster.
final class WebhookPoster: Sendable {
    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let url: URL
    /// The URL's host as AHC reads it (without IPv6 brackets), which `dnsOverride` maps; nil when the
    /// URL is not an http(s) URL with a host.
    private let host: String?
    private let port: Int
    private let secret: String
    private let timeout: TimeInterval
    private let allowPrivateTargets: Bool
    private let metrics: ServerMetrics
    private let logger: Logger
    private let clients = Mutex(Clients())

    /// The clients by the address they connect to.
    private struct Clients {
        var byAddress: [String: (client: HTTPClient, posts: Int)] = [:]
        /// The addresses of the host's latest resolution: their clients are kept when idle.
        var current: Set<String> = []
        var isShutDown = false
    }

    /// Runs `body` with a poster, and shuts its clients down when `body` returns or throws.
    static func withPoster<Result>(
        url: URL, secret: String, timeout: TimeInterval, allowPrivateTargets: Bool, metrics: ServerMetrics, logger: Logger,
        _ body: (WebhookPoster) async throws -> Result
    ) async rethrows -> Result {
        let poster = WebhookPoster(
            url: url, secret: secret, timeout: timeout, allowPrivateTargets: allowPrivateTargets, metrics: metrics, logger: logger)
        do {
            let result = try await body(poster)
            await poster.shutdown()
            return result
        } catch {
            await poster.shutdown()
            throw error
        }
    }

    private init(url: URL, secret: String, timeout: TimeInterval, allowPrivateTargets: Bool, metrics: ServerMetrics, logger: Logger) {
        self.url = url
        let scheme = url.scheme?.lowercased()
        if scheme == "http" || scheme == "https", var host = url.host, !host.isEmpty {
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self.host = host
        } else {
            host = nil
        }
        port = url.port ?? (scheme == "https" ? 443 : 80)
        self.secret = secret
        self.timeout = timeout
        self.allowPrivateTargets = allowPrivateTargets
        self.metrics = metrics
        self.logger = logger
    }

    /// POSTs `delivery` signed at `date`; nil when the webhook answered 2xx, else what went wrong.
    func post(_ delivery: WebhookDelivery, at date: Date) async -> String? {
        guard let host else { return "the webhook URL is not an http(s) URL with a host" }
        let timestamp = Int(date.timeIntervalSince1970.rounded(.down))
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "livepush-webhook")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: WebhookSignature.eventIDHeader, value: delivery.id.lowercased)
        request.headers.add(
            name: WebhookSignature.signatureHeader,
            value: WebhookSignature.value(secret: secret, timestamp: timestamp, body: delivery.body))
        request.body = .bytes(ByteBuffer(bytes: delivery.body))
        let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
        do {
            let (status, location) = try await exchange(request, host: host, deadline: deadline)
            if (200..<300).contains(status) { return nil }
            if (300..<400).contains(status) {
                // Following it would lose the body (307), turn the POST into a GET (302), or send the
                // event wherever the receiver says: the receiver must answer at the configured URL.
                let to = location.map { " to \(String($0.prefix(200)))" } ?? ""
                return "HTTP \(status): a redirect\(to), not followed; the webhook URL must answer 2xx itself"
            }
            return "HTTP \(status)"
        } catch {
            if (error as? HTTPClientError) == .deadlineExceeded { return "no answer within \(DurationText.text(timeout))" }
            return "\(error)"
        }
    }

    /// Resolves, checks, and POSTs to the first checked address that accepts a connection; the
    /// answer's status and `Location`.
    private func exchange(_ request: HTTPClientRequest, host: String, deadline: NIODeadline) async throws -> (Int, String?) {
        let addresses = try await WebhookResolver.resolve(host: host, port: port)
        if !allowPrivateTargets {
            // Every address, not only the first: a name that resolves to a public and a private address
            // would otherwise reach the private one whenever the public one does not answer.
            for address in addresses {
                if let range = WebhookTargetPolicy.refusal(for: address) {
                    metrics.recordWebhookRefusedTarget()
                    logger.warning(
                        "webhook target refused",
                        metadata: ["host": "\(host)", "address": "\(address.ipAddress ?? "?")", "range": "\(range)"])
                    throw Failure(
                        description: "refused: '\(host)' resolves to \(address.ipAddress ?? "?"), a \(range) address; "
                            + "set --webhook-allow-private-targets to POST there")
                }
            }
        }
        let checked = addresses.compactMap(\.ipAddress)
        var lastError: (any Error)?
        for address in checked {
            do {
                return try await exchange(request, host: host, address: address, of: checked, deadline: deadline)
            } catch let error where Self.isConnectFailure(error) {
                lastError = error
            }
        }
        throw Failure(description: "cannot connect to \(host):\(port): \(lastError.map { "\($0)" } ?? "no address")")
    }

    /// POSTs through the client that connects to `address` for `host`.
    private func exchange(
        _ request: HTTPClientRequest, host: String, address: String, of addresses: [String], deadline: NIODeadline
    ) async throws -> (Int, String?) {
        let client = try await lease(address, host: host, current: Set(addresses))
        let answer: Result<(Int, String?), any Error>
        do {
            // The body is not read: the status decides (AHC ends an exchange whose answer is dropped).
            let response = try await client.execute(request, deadline: deadline)
            answer = .success((Int(response.status.code), response.headers.first(name: "Location")))
        } catch {
            answer = .failure(error)
        }
        await giveBack(address)
        return try answer.get()
    }

    /// The client for `address` (made if needed), counted as in use; the idle clients of addresses no
    /// longer in `current`, the host's latest resolution, are shut down.
    private func lease(_ address: String, host: String, current: Set<String>) async throws -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .milliseconds(Int64(timeout * 1000))))
        configuration.dnsOverride = [host: address]
        // A refused connection fails the POST (and the next address is tried) instead of being retried
        // by the pool until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        let (client, retired) = try clients.withLock { clients in
            guard !clients.isShutDown else { throw Failure(description: "the webhook poster is shut down") }
            clients.current = current
            let stale = clients.byAddress.filter { !current.contains($0.key) && $0.value.posts == 0 }
            for key in stale.keys { clients.byAddress[key] = nil }
            let client =
                clients.byAddress[address]?.client
                ?? HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients.byAddress[address] = (client, (clients.byAddress[address]?.posts ?? 0) + 1)
            return (client, stale.values.map(\.client))
        }
        for client in retired { try? await client.shutdown() }
        return client
    }

    /// Ends a POST's use of the client for `address`; shuts it down if it was its last and the
    /// address has left the host's resolution.
    private func giveBack(_ address: String) async {
        let retired = clients.withLock { clients -> HTTPClient? in
            guard var entry = clients.byAddress[address] else { return nil }
            entry.posts -= 1
            clients.byAddress[address] = entry
            guard entry.posts == 0, !clients.current.contains(address) else { return nil }
            clients.byAddress[address] = nil
            return entry.client
        }
        try? await retired?.shutdown()
    }

    /// Shuts every client down; a later POST fails.
    private func shutdown() async {
        let all = clients.withLock { clients in
            clients.isShutDown = true
            defer { clients.byAddress = [:] }
            return clients.byAddress.values.map(\.client)
        }
        for client in all { try? await client.shutdown() }
    }

    /// Whether `error` means no connection was made to an address, so the next one may be tried.
    private static func isConnectFailure(_ error: any Error) -> Bool {
        if error is IOError { return true }
        return (error as? HTTPClientError) == .connectTimeout
    }
}
