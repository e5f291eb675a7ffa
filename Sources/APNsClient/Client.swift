import APNsCore
import Foundation
import Logging
import Metrics
import NIOCore
import NIOPosix
import NIOSSL

/// Supplies the provider token (JWT) for the `authorization` header.
public protocol ProviderTokenProviding: Sendable {
    /// The current token, renewed as its lifetime requires.
    func currentJWT() -> String
    /// Called after 403 ExpiredProviderToken for `rejected`: renew it once (concurrent callers share one renewal).
    func renewJWT(rejected: String) -> String
}

/// An APNs provider client: HTTP/2 over TLS, a pool of multiplexed connections, typed answers and retries.
public final class APNsClient: Sendable {
    public let configuration: APNsClientConfiguration
    /// Connections to `configuration.endpoint`: device pushes and broadcasts.
    let pool: ConnectionPool
    /// Connections to the channel management API (another host and port), opened on first use.
    let managementPool: ConnectionPool
    private let tokens: (any ProviderTokenProviding)?
    private let logger: Logger
    /// Runs tasks on an event loop of the client's group. With a group of one thread (a sender that makes
    /// one), `withTaskExecutorPreference(client.taskExecutor)` (or a task group's
    /// `addTask(executorPreference:)`) runs the sending tasks where the answers are read: no thread hop
    /// per request. Measured in BENCHMARKS.md ("Client CPU per push against h2load").
    public let taskExecutor: EventLoopTaskExecutor
    private let requestCounter: String = "livepush_apns_requests_total"
    private let latency = Metrics.Timer(label: "livepush_apns_request_duration_seconds")

    /// - Parameters:
    ///   - tokens: the provider token source; nil sends no `authorization` header (with a
    ///     `configuration.clientCertificate`, the certificate authenticates the connection instead).
    ///   - group: the event loops to use (the shared singleton by default).
    public init(
        configuration: APNsClientConfiguration,
        tokens: (any ProviderTokenProviding)?,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "livepush.apns.client")
    ) throws(APNsClientError) {
        self.configuration = configuration
        self.tokens = tokens
        self.logger = logger
        self.taskExecutor = EventLoopTaskExecutor(group.next())
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.applicationProtocols = ["h2"]
        if let caFile = configuration.additionalTrustRootFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw .tlsFailed(endpoint: configuration.endpoint.description, detail: "CA file '\(caFile)' does not exist or is not readable")
            }
            if configuration.trustOnlyAdditionalRoots {
                tls.trustRoots = .file(caFile)
            } else {
                tls.additionalTrustRoots = [.file(caFile)]
            }
        }
        try configuration.clientCertificate?.apply(to: &tls, endpoint: configuration.endpoint.description)
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw .tlsFailed(endpoint: configuration.endpoint.description, detail: "could not load the TLS configuration: \(error)")
        }
        self.pool = ConnectionPool(configuration: configuration, sslContext: context, group: group, logger: logger)
        var management = configuration
        management.endpoint = configuration.resolvedChannelManagementEndpoint
        self.managementPool = ConnectionPool(configuration: management, sslContext: context, group: group, logger: logger)
    }

    /// Sends one request once: the answer (any status), or a typed error when there was none.
    public func send(_ request: APNsRequest) async throws(APNsClientError) -> APNsResponse {
        try await attempt(WireRequest(request), on: pool, authorization: tokens?.currentJWT(), avoiding: nil)
            .result.get().apnsResponse
    }

    /// Sends one push with retries as the policy and APNs' reasons say, and returns its one final outcome.
    public func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome {
        let deadline: Date? = if case .at(let date) = request.headers.expiration { date } else { nil }
        let exchange = await exchange(WireRequest(request), on: pool, deadline: deadline, subject: request.token.shortened)
        return APNsDeliveryOutcome(result: exchange.result.map(\.apnsResponse), attempts: exchange.attempts, duration: exchange.duration)
    }

    /// One request with the retry loop every API shares: the policy's decisions on APNs' reasons and
    /// transport failures, one provider token renewal after `ExpiredProviderToken`, no retry past
    /// `deadline`. `subject` names the request in logs (a shortened token, a channel id).
    func exchange(
        _ request: WireRequest, on pool: ConnectionPool, deadline: Date?, subject: String
    ) async -> (result: Result<WireResponse, APNsClientError>, attempts: Int, duration: Duration) {
        let started = ContinuousClock.now
        var attempt = 0
        var tokenRenewed = false
        var jwt = tokens?.currentJWT()
        var avoided: Int?
        while true {
            attempt += 1
            let (result, connectionID) = await self.attempt(request, on: pool, authorization: jwt, avoiding: avoided)
            let attemptResult: APNsRetryPolicy.AttemptResult
            switch result {
            case .success(let response): attemptResult = .answered(response.apnsResponse)
            case .failure(let error): attemptResult = .failed(error)
            }
            let decision = configuration.retry.decide(
                after: attemptResult, attempt: attempt, tokenRenewed: tokenRenewed, now: Date(),
                deadline: deadline, random: Double.random(in: 0..<1)
            )
            switch decision {
            case .stop:
                return (result, attempt, ContinuousClock.now - started)
            case .retryWithNewProviderToken:
                tokenRenewed = true
                if let tokens, let rejected = jwt {
                    jwt = tokens.renewJWT(rejected: rejected)
                    logger.info("provider token expired; renewed it and retrying", metadata: ["subject": "\(subject)"])
                }
            case .retry(let delay, let newConnection):
                logger.debug(
                    "retrying request",
                    metadata: [
                        "subject": "\(subject)", "path": "\(Self.loggedPath(request.path))", "attempt": "\(attempt)",
                        "delay": "\(delay)", "after": "\(Self.summary(result))",
                    ])
                avoided = newConnection ? connectionID : nil
                if delay > 0 {
                    try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
                }
                if Task.isCancelled {
                    return (result, attempt, ContinuousClock.now - started)
                }
                jwt = tokens?.currentJWT() ?? jwt
            }
        }
    }

    /// One attempt: its result and the connection it used.
    private func attempt(
        _ request: WireRequest, on pool: ConnectionPool, authorization jwt: String?, avoiding: Int?
    ) async -> (result: Result<WireResponse, APNsClientError>, connectionID: Int?) {
        let start = ContinuousClock.now
        let result: Result<WireResponse, APNsClientError>
        var connectionID: Int?
        do {
            let connection = try await pool.connection(avoiding: avoiding)
            connectionID = connection.id
            result = await connection.execute(
                request, authorization: jwt.map { "bearer \($0)" }, timeout: configuration.requestTimeout
            )
        } catch {
            result = .failure(error)
        }
        let elapsed = ContinuousClock.now - start
        latency.record(duration: elapsed)
        let (status, reason): (String, String) =
            switch result {
            case .success(let response): (String(response.status), response.reason?.rawValue ?? "")
            case .failure(let error): ("error", Self.errorKind(error))
            }
        Counter(label: requestCounter, dimensions: [("status", status), ("reason", reason)]).increment()
        return (result, connectionID)
    }

    /// The number of open connections.
    public var openConnectionCount: Int { pool.openConnectionCount }

    /// How many connections the client has opened since it started (reconnections included).
    public var openedConnectionCount: Int { pool.openedConnectionCount }

    /// Closes every connection. Requests in flight finish or fail.
    public func shutdown() async {
        await pool.shutdown()
        await managementPool.shutdown()
    }

    /// A path for logs: a device token in it is shortened.
    private static func loggedPath(_ path: String) -> String {
        guard path.hasPrefix("/3/device/") else { return path }
        return "/3/device/" + DeviceToken.shorten(String(path.dropFirst("/3/device/".count)))
    }

    private static func summary(_ result: Result<WireResponse, APNsClientError>) -> String {
        switch result {
        case .success(let response): return "\(response.status) \(response.reason?.rawValue ?? "")"
        case .failure(let error): return error.description
        }
    }

    private static func errorKind(_ error: APNsClientError) -> String {
        switch error {
        case .connectFailed: return "connect_failed"
        case .tlsFailed: return "tls_failed"
        case .timedOut: return "timed_out"
        case .connectionClosed: return "connection_closed"
        case .goAway: return "goaway"
        case .protocolError: return "protocol_error"
        case .shutDown: return "shut_down"
        }
    }
}
