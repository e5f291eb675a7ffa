import APNsAuth
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
    /// One lane per provider key (one lane for a single token source or none): its token source, its
    /// connections to `configuration.endpoint` (device pushes and broadcasts) and to the channel
    /// management API (another host and port), each opened on first use.
    let lanes: [KeyLane]
    /// The keys when the client was made with a keyring: each push goes to its key's lane.
    let keyring: ProviderKeyring?
    let logger: Logger
    /// Runs tasks on an event loop of the client's group. With a group of one thread (a sender that makes
    /// one), `withTaskExecutorPreference(client.taskExecutor)` (or a task group's
    /// `addTask(executorPreference:)`) runs the sending tasks where the answers are read: no thread hop
    /// per request. Measured in BENCHMARKS.md ("Client CPU per push against h2load").
    public let taskExecutor: EventLoopTaskExecutor
    let requestCounter: String = "livepush_apns_requests_total"
    let latency = Metrics.Timer(label: "livepush_apns_request_duration_seconds")
    /// The counter of accepted requests, made once (like `latency`, after any `MetricsSystem.bootstrap`):
    /// most requests are accepted, and the others each make a `Counter` (an object, its dimensions and
    /// a factory call) for their status and reason.
    let acceptedCounter = Counter(label: "livepush_apns_requests_total", dimensions: [("status", "200"), ("reason", "")])

    /// - Parameters:
    ///   - tokens: the provider token source; nil sends no `authorization` header (with a
    ///     `configuration.clientCertificate`, the certificate authenticates the connection instead).
    ///   - group: the event loops to use (the shared singleton by default).
    public convenience init(
        configuration: APNsClientConfiguration,
        tokens: (any ProviderTokenProviding)?,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "livepush.apns.client")
    ) throws(APNsClientError) {
        try self.init(configuration: configuration, keys: .single(tokens), group: group, logger: logger)
    }

    /// A client that signs each push with the key of `keyring` that covers its topic and the endpoint's
    /// environment (docs/apns-protocol.md §5), with one connection pool per key, since APNs binds a
    /// connection to the key of its first push. A push no key covers fails with
    /// `APNsClientError.noProviderKey` without being sent.
    public convenience init(
        configuration: APNsClientConfiguration,
        keyring: ProviderKeyring,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "livepush.apns.client")
    ) throws(APNsClientError) {
        try self.init(configuration: configuration, keys: .keyring(keyring), group: group, logger: logger)
    }

    private enum Keys {
        case single((any ProviderTokenProviding)?)
        case keyring(ProviderKeyring)
    }

    private init(
        configuration: APNsClientConfiguration, keys: Keys, group: any EventLoopGroup, logger: Logger
    ) throws(APNsClientError) {
        self.configuration = configuration
        self.logger = logger
        self.taskExecutor = EventLoopTaskExecutor(group.next())
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.applicationProtocols = ["h2"]
        if let caFile = configuration.additionalTrustRootFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw .tlsFailed(
                    endpoint: configuration.endpoint.description,
                    detail: "the CA file '\(caFile)' does not exist or is not readable (a simulator started without --data-dir "
                        + "writes its CA to \(SimulatorDefaults.caCertificatePath()))")
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
        var management = configuration
        management.endpoint = configuration.resolvedChannelManagementEndpoint
        func lane(keyID: String?, tokens: (any ProviderTokenProviding)?) -> KeyLane {
            KeyLane(
                keyID: keyID, tokens: tokens,
                pool: ConnectionPool(configuration: configuration, sslContext: context, group: group, logger: logger),
                managementPool: ConnectionPool(configuration: management, sslContext: context, group: group, logger: logger))
        }
        switch keys {
        case .single(let tokens):
            self.keyring = nil
            self.lanes = [lane(keyID: nil, tokens: tokens)]
        case .keyring(let keyring):
            self.keyring = keyring
            self.lanes = keyring.entries.map { lane(keyID: $0.keyID, tokens: $0.source) }
        }
    }

    /// The lane of the key that signs pushes to `topic` (a bundle id for broadcasts and channels).
    func lane(forTopic topic: String) throws(APNsClientError) -> KeyLane {
        guard let keyring else { return lanes[0] }
        let environment = configuration.endpoint.environment
        do {
            let keyID = try keyring.entry(forTopic: topic, environment: environment).keyID
            if let lane = lanes.first(where: { $0.keyID == keyID }) { return lane }
        } catch {
            throw .noProviderKey(topic: topic, detail: error.description)
        }
        throw .noProviderKey(topic: topic, detail: "the keyring's key has no connections")
    }

    /// Sends one request once: the answer (any status), or a typed error when there was none.
    public func send(_ request: APNsRequest) async throws(APNsClientError) -> APNsResponse {
        let lane = try lane(forTopic: request.headers.topic)
        return try await attempt(WireRequest(request), on: lane.pool, authorization: lane.tokens?.currentJWT(), avoiding: nil)
            .result.get().apnsResponse
    }

    /// Sends one push with retries as the policy and APNs' reasons say, and returns its one final outcome.
    public func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome {
        let deadline: Date? = if case .at(let date) = request.headers.expiration { date } else { nil }
        let lane: KeyLane
        do {
            lane = try self.lane(forTopic: request.headers.topic)
        } catch {
            return APNsDeliveryOutcome(result: .failure(error), attempts: 0, duration: .zero)
        }
        let exchange = await exchange(
            WireRequest(request), on: lane.pool, tokens: lane.tokens, deadline: deadline, subject: request.token.shortened)
        return APNsDeliveryOutcome(result: exchange.result.map(\.apnsResponse), attempts: exchange.attempts, duration: exchange.duration)
    }

    /// One request with the retry loop every API shares: the policy's decisions on APNs' reasons and
    /// transport failures, one provider token renewal after `ExpiredProviderToken`, no retry past
    /// `deadline`. `subject` names the request in logs (a shortened token, a channel id).
    func exchange(
        _ request: WireRequest, on pool: ConnectionPool, tokens: (any ProviderTokenProviding)?, deadline: Date?, subject: String
    ) async -> (result: Result<WireResponse, APNsClientError>, attempts: Int, duration: Duration) {
        let started = ContinuousClock.now
        var attempt = 0
        var tokenRenewed = false
        var jwt = tokens?.currentJWT()
        var avoided: Int?
        while true {
            attempt += 1
            let (result, connectionID) = await self.attempt(request, on: pool, authorization: jwt, avoiding: avoided)
            // An accepted push is final whatever the policy (`decide` stops on it): no clock, no random
            // number (a getrandom system call on Linux) for the common case.
            if case .success(let response) = result, response.status == 200 {
                return (result, attempt, ContinuousClock.now - started)
            }
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
        if case .success(let response) = result, response.status == 200 {
            acceptedCounter.increment()
            return (result, connectionID)
        }
        let (status, reason): (String, String) =
            switch result {
            case .success(let response): (String(response.status), response.reason?.rawValue ?? "")
            case .failure(let error): ("error", Self.errorKind(error))
            }
        Counter(label: requestCounter, dimensions: [("status", status), ("reason", reason)]).increment()
        return (result, connectionID)
    }

    /// Opens a connection to the push endpoint (TCP, TLS and the HTTP/2 handshake) without sending a
    /// request, or finds one open, and keeps it for the pushes to come: a server checks at start that it
    /// can reach APNs. Throws what the first push would meet (`connectFailed`, `tlsFailed`, …).
    public func checkReachable() async throws(APNsClientError) {
        _ = try await lanes[0].pool.connection()
    }

    /// The number of open connections to the push endpoint (of every key).
    public var openConnectionCount: Int { lanes.reduce(0) { $0 + $1.pool.openConnectionCount } }

    /// How many connections to the push endpoint the client has opened since it started (reconnections
    /// included, every key).
    public var openedConnectionCount: Int { lanes.reduce(0) { $0 + $1.pool.openedConnectionCount } }

    /// Closes every connection. Requests in flight finish or fail.
    public func shutdown() async {
        for lane in lanes {
            await lane.pool.shutdown()
            await lane.managementPool.shutdown()
        }
    }

    /// A path for logs: a device token in it is shortened.
    static func loggedPath(_ path: String) -> String {
        guard path.hasPrefix("/3/device/") else { return path }
        return "/3/device/" + DeviceToken.shorten(String(path.dropFirst("/3/device/".count)))
    }

    static func summary(_ result: Result<WireResponse, APNsClientError>) -> String {
        switch result {
        case .success(let response): return "\(response.status) \(response.reason?.rawValue ?? "")"
        case .failure(let error): return error.description
        }
    }

    static func errorKind(_ error: APNsClientError) -> String {
        switch error {
        case .connectFailed: return "connect_failed"
        case .tlsFailed: return "tls_failed"
        case .timedOut: return "timed_out"
        case .connectionClosed: return "connection_closed"
        case .goAway: return "goaway"
        case .protocolError: return "protocol_error"
        case .shutDown: return "shut_down"
        case .noProviderKey: return "no_provider_key"
        }
    }
}
