import APNsCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import PushStore
import ServiceLifecycle

/// The provider server: the HTTP API, the outbox workers and the lifecycle sweep, over one store and
/// one APNs sender.
///
/// `start()` returns once the API listens; `shutdown()` stops accepting requests, lets the workers
/// finish the pushes in flight and gives back their outbox claims. `run()` does both around a
/// cancellation (for service lifecycles and signals).
public final class LivePushServer: Service, Sendable {
    public let configuration: ServerConfiguration
    public let metrics: ServerMetrics
    private let services: ServerServices
    private let workers: DeliveryWorkers
    private let sweeper: LifecycleSweeper
    private let logger: Logger
    private let state = Locked<(http: Task<Void, any Error>?, group: ServiceGroup?, sweep: Task<Void, Never>?, port: Int?)>((nil, nil, nil, nil))

    /// - Parameters:
    ///   - store: where everything is kept; the server does not close it.
    ///   - sender: the APNs client (or a stand-in); the server does not shut it down.
    public init(
        configuration: ServerConfiguration, store: any PushStore, sender: any PushSending,
        metrics: ServerMetrics = ServerMetrics(), clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "livepush.server")
    ) throws(ServerConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        let webhook = WebhookNotifier(url: configuration.webhookURL, logger: logger)
        let signal = OutboxSignal(itemsPerWorker: configuration.batchSize)
        let acceptor = PushAcceptor(store: store, configuration: configuration, metrics: metrics, clock: clock, logger: logger, webhook: webhook, signal: signal)
        services = ServerServices(
            store: store, configuration: configuration, clock: clock, logger: logger, metrics: metrics,
            authenticator: Authenticator(store: store, appKeys: configuration.appKeys, backendKeys: configuration.backendKeys),
            acceptor: acceptor, webhook: webhook
        )
        workers = DeliveryWorkers(store: store, sender: sender, configuration: configuration, metrics: metrics, clock: clock, logger: logger, webhook: webhook, signal: signal)
        sweeper = LifecycleSweeper(store: store, configuration: configuration, clock: clock, logger: logger, webhook: webhook, timestamps: acceptor.timestamps, signal: signal)
    }

    /// The router with every route of the API (exposed for route listings and tests).
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(APIErrorMiddleware(logger: logger))
        AppRoutes(services: services).add(to: router)
        BackendRoutes(services: services).add(to: router)
        OperationsRoutes(services: services).add(to: router)
        return router
    }

    /// The bound HTTP port once started.
    public var port: Int? { state.withLock { $0.port } }

    /// Starts the HTTP API, then (once it listens) the workers and the lifecycle sweep; returns the
    /// bound port. A port that cannot be bound fails with `ServerStartError.cannotListen` before any
    /// background work has started.
    @discardableResult
    public func start() async throws -> Int {
        let (bound, continuation) = AsyncStream<Int>.makeStream()
        let logger = logger
        let app = Application(
            router: makeRouter(),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "livepush"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("livepush serve listening", metadata: ["port": "\(port)"])
                continuation.yield(port)
                continuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(services: [app], logger: logger)
        let http = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        state.withLock { $0.http = http; $0.group = group }
        var port: Int?
        for await value in bound { port = value }
        guard let port else {
            let result = await http.result
            await shutdown()
            var reason = "the server stopped before listening"
            if case .failure(let error) = result { reason = Self.listenFailure(error) }
            throw ServerStartError.cannotListen(host: configuration.host, port: configuration.port, reason: reason)
        }
        workers.start()
        let sweeper = sweeper
        let interval = configuration.lifecycleInterval
        let sweep = Task.detached {
            while !Task.isCancelled {
                await sweeper.sweep()
                try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            }
        }
        state.withLock { $0.port = port; $0.sweep = sweep }
        return port
    }

    /// "address already in use" for a bind error, the error's own text otherwise.
    static func listenFailure(_ error: any Error) -> String {
        guard let io = error as? IOError else { return "\(error)" }
        return String(cString: strerror(io.errnoCode)).lowercased()
    }

    /// Graceful stop: the API stops, the workers finish in-flight pushes and release their claims.
    public func shutdown() async {
        let (http, group, sweep) = state.withLock { state in
            defer { state.http = nil; state.group = nil; state.sweep = nil; state.port = nil }
            return (state.http, state.group, state.sweep)
        }
        await group?.triggerGracefulShutdown()
        _ = await http?.result
        sweep?.cancel()
        await sweep?.value
        await workers.stop()
        logger.info("livepush serve stopped")
    }

    /// Runs as a service: starts, then on graceful shutdown (e.g. SIGTERM in a `ServiceGroup`) stops
    /// the API and lets the workers finish.
    public func run() async throws {
        try await start()
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Runs until SIGTERM or SIGINT, then shuts down gracefully.
    public func runUntilSignalled() async throws {
        let group = ServiceGroup(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }

    /// Runs one lifecycle sweep now (ends over-age activities, marks those past their dismissal date
    /// dismissed, forgets old ended ones).
    @discardableResult
    public func sweepLifecycle() async -> (ended: Int, dismissed: Int, forgotten: Int) {
        await sweeper.sweep()
    }
}

/// Why the server could not start.
public enum ServerStartError: Error, Sendable, CustomStringConvertible {
    case cannotListen(host: String, port: Int, reason: String)

    public var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason); pick another --host/--port (0 picks a free port)"
        }
    }
}
