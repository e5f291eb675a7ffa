import APNsCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import PushStore
import ServiceLifecycle
import Synchronization

/// The provider server: the HTTP API (a Hummingbird application) with its Services: the delivery
/// workers, the lifecycle sweep and the webhook, over one store and one APNs sender.
///
/// The services wait until the API listens. On graceful shutdown the API stops first, then the sweep,
/// then the workers (which finish their in-flight pushes and give back their claims), then the webhook
/// (which finishes its POSTs in flight and gives back its claims; undelivered events stay stored for
/// the next start). `run()` is the whole lifecycle as a Service; `start()`
/// and `shutdown()` do the same for callers that embed the server (tests, the demo).
package final class LivePushServer: Service, Sendable {
    package let configuration: ServerConfiguration
    package let metrics: ServerMetrics
    private let store: any PushStore
    private let clock: any WallClock
    private let keys: APIKeyChecker
    private let pushes: PushService
    private let activities: ActivityService
    private let renewals: RenewalService
    private let identity: IdentityService
    private let idempotency: IdempotencyService
    private let channels: ChannelService
    private let console: ConsoleService
    private let webhook: WebhookWorker
    private let delivery: DeliveryWorker
    private let lifecycle: LifecycleWorker
    private let environmentCheck: EnvironmentCheck
    private let listening = ListeningGate()
    private let logger: Logger
    /// The ServiceGroup `start()` runs the application in, the task running it, and the bound port.
    private let embedded = Mutex<(group: ServiceGroup?, task: Task<Void, any Error>?, port: Int?)>((nil, nil, nil))

    /// - Parameters:
    ///   - store: where everything is kept; the server does not close it.
    ///   - sender: the APNs client (or a stand-in); the server does not shut it down.
    package init(
        configuration: ServerConfiguration, store: any PushStore, sender: any PushSending,
        metrics: ServerMetrics = ServerMetrics(), clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "livepush.server")
    ) throws(ServerConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.store = store
        self.clock = clock
        environmentCheck = EnvironmentCheck(store: store, environment: configuration.environment, clock: clock, logger: logger)
        let webhookSignal = OutboxSignal(itemsPerWorker: configuration.webhookConcurrency)
        let events = WebhookQueue(isEnabled: configuration.webhookURL != nil, clock: clock, logger: logger, signal: webhookSignal)
        let workers = WorkerContext(settings: configuration.workers, metrics: metrics, clock: clock, logger: logger, listening: listening)
        webhook = WebhookWorker(store: store, signal: webhookSignal, context: workers)
        let signal = OutboxSignal(itemsPerWorker: configuration.batchSize)
        let tokenKey = AppTokenKey(store: store, configuredSecret: configuration.appTokenSecret)
        keys = APIKeyChecker(
            credentials: CredentialService(store: store), appKeys: configuration.appKeys, backendKeys: configuration.backendKeys,
            operatorKeys: configuration.operatorKeys, tokens: tokenKey, clock: clock, database: store.location)
        identity = IdentityService(key: tokenKey, store: store, lifetimes: configuration.tokenLifetimes, clock: clock, logger: logger)
        idempotency = IdempotencyService(store: store, clock: clock, logger: logger)
        channels = ChannelService(store: store, sender: sender, historyLimit: configuration.historyLimit, clock: clock, logger: logger)
        let pushes = PushService(
            store: store, settings: configuration.pushes, metrics: metrics, clock: clock, logger: logger, events: events, signal: signal)
        self.pushes = pushes
        console = ConsoleService(store: store, pushes: pushes, settings: configuration.console, clock: clock, logger: logger)
        activities = ActivityService(store: store, settings: configuration.activities, clock: clock, logger: logger, events: events)
        let renewals = RenewalService(pushes: pushes)
        self.renewals = renewals
        delivery = DeliveryWorker(store: store, sender: sender, events: events, signal: signal, context: workers)
        lifecycle = LifecycleWorker(store: store, pushes: pushes, renewals: renewals, context: workers)
    }

    /// The router with every route of the API (exposed for route listings and tests): one group per
    /// audience under `/v1`, each behind the authentication middleware of its key scope.
    package func makeRouter() -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        let methods = MethodTable()
        // Outermost: the headers go on every answer, the errors' too.
        router.middlewares.add(NoSniffNoStore())
        router.middlewares.add(APIErrorMiddleware(logger: logger, methods: methods))
        // One budget of failed requests per client address for both audiences, checked before any credential.
        let addressLimit = AddressLimitMiddleware(
            perMinute: configuration.addressFailureLimit, burst: configuration.addressFailureBurst, metrics: metrics)
        let shapes = ContentStateShapeService(store: store, clock: clock, logger: logger)
        let resources = LiveActivityResourceService(pushes: pushes)
        let registrar = ActivityRegistrar(activities: activities, renewals: renewals, resources: resources, shapes: shapes)
        AppRoutes(activities: activities, registrar: registrar, identity: identity, clock: clock).add(
            to: router.group("v1")
                .add(middleware: addressLimit)
                .add(middleware: APIKeyAuthenticator(scope: .app, keys: keys))
                .add(
                    middleware: RateLimitMiddleware(
                        perMinute: configuration.appRateLimit, burst: configuration.appRateBurst,
                        installations: (configuration.installationRateLimit, configuration.installationRateBurst), metrics: metrics)))
        let backend = router.group("v1")
            .add(middleware: addressLimit)
            .add(middleware: APIKeyAuthenticator(scope: .backend, keys: keys))
            .add(middleware: RateLimitMiddleware(perMinute: configuration.backendRateLimit, burst: configuration.backendRateBurst, metrics: metrics))
        let idempotent = IdempotentSend(service: idempotency, clock: clock)
        UserTokenRoutes(identity: identity, clock: clock).add(to: backend)
        BackendRoutes(pushes: pushes, activities: activities, renewals: renewals, idempotent: idempotent).add(to: backend)
        ChannelRoutes(channels: channels, pushes: pushes, idempotent: idempotent, clock: clock).add(to: backend)
        ShapeRoutes(shapes: shapes, clock: clock).add(to: backend)
        LiveActivityRoutes(resources: resources, maximumActiveDuration: activities.settings.maximumActiveDuration, clock: clock).add(to: backend)
        // The console's API: its own scope, so neither an app nor a backend credential reads it.
        OperatorRoutes(console: console, resources: resources, clock: clock).add(
            to: router.group("v1")
                .add(middleware: addressLimit)
                .add(middleware: APIKeyAuthenticator(scope: .operator, keys: keys))
                .add(
                    middleware: RateLimitMiddleware(
                        perMinute: configuration.operatorRateLimit, burst: configuration.operatorRateBurst, metrics: metrics)))
        ConsoleRoutes().add(to: router)
        OperationsRoutes(
            operations: OperationsService(store: store), metrics: metrics,
            access: MetricsAccess(key: configuration.metricsKey, operators: configuration.metricsOperator ? keys : nil)
        ).add(to: router)
        methods.record(router.routes.map { (path: $0.path.description, method: $0.method) })
        return router
    }

    /// The Hummingbird application: the API and, as its Services, the webhook, the workers and the sweep
    /// (shut down in the reverse order: API, sweep, workers, webhook).
    package func makeApplication() -> some ApplicationProtocol {
        let listening = listening
        let logger = logger
        let developmentAppKeys = configuration.appKeys
        let deadlines = RequestDeadlines(
            header: .milliseconds(Int64(configuration.requestHeaderTimeout * 1000)),
            body: .milliseconds(Int64(configuration.requestBodyTimeout * 1000))
        )
        let connections = ConnectionCap(maximum: configuration.maximumConnections, metrics: metrics)
        return Application(
            router: makeRouter(),
            // The cap first: a connection over it is closed before anything of it is read.
            server: .http1(
                configuration: .init(additionalChannelHandlers: [
                    connections.handler(), TransferCodingHandler(), RequestDeadlineHandler(deadlines: deadlines),
                ])),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "livepush"),
            services: [webhook, delivery, lifecycle],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("livepush serve listening", metadata: ["port": "\(port)"])
                if !developmentAppKeys.isEmpty {
                    logger.notice(
                        "development app keys in use (--app-key): they act for any user and are not rate-limited; for local use only. Apps use user tokens (POST /v1/users/{userId}/app-tokens) or installation tokens",
                        metadata: ["count": "\(developmentAppKeys.count)"])
                }
                listening.open(port: port)
            },
            logger: logger
        )
    }

    /// The bound HTTP port once started.
    package var port: Int? { embedded.withLock { $0.port } }

    /// Runs the application and its services until graceful shutdown (a Service of an enclosing group).
    /// A database of the other APNs environment fails with `ServerStartError.otherEnvironment`, and a port
    /// that cannot be bound with `ServerStartError.cannotListen`, before any background work.
    package func run() async throws {
        do {
            try await environmentCheck.verify()
        } catch {
            listening.close()  // `start()` waits on it
            throw error
        }
        do {
            try await makeApplication().run()
        } catch {
            listening.close()
            if listening.isOpen { throw error }
            throw ServerStartError.cannotListen(host: configuration.host, port: configuration.port, reason: Self.listenFailure(error))
        }
        listening.close()
    }

    /// Starts the server in the background and returns the bound port once the API listens.
    @discardableResult
    package func start() async throws -> Int {
        // Its services (the listening gate) run once: a stopped server is not restarted.
        guard embedded.withLock({ $0.task == nil }), !listening.isOpen else { throw ServerStartError.runsOnce }
        let group = ServiceGroup(configuration: groupConfiguration(signals: false))
        let task = Task { try await group.run() }
        embedded.withLock {
            $0.group = group
            $0.task = task
        }
        guard let port = await listening.wait() else {
            let result = await task.result
            embedded.withLock { $0 = (nil, nil, nil) }
            if case .failure(let error) = result { throw error }
            throw ServerStartError.cannotListen(host: configuration.host, port: configuration.port, reason: "the server stopped before listening")
        }
        embedded.withLock { $0.port = port }
        return port
    }

    /// Graceful stop of a server `start()` started: the API stops, the workers finish in-flight pushes and
    /// release their claims, the webhook finishes its POSTs in flight (the rest stays stored).
    package func shutdown() async {
        let (group, task) = embedded.withLock { state in
            defer { state = (nil, nil, nil) }
            return (state.group, state.task)
        }
        await group?.triggerGracefulShutdown()
        _ = await task?.result
        logger.info("livepush serve stopped")
    }

    /// Runs until SIGTERM or SIGINT, then shuts down gracefully.
    package func runUntilSignalled() async throws {
        try await ServiceGroup(configuration: groupConfiguration(signals: true)).run()
    }

    /// The group that runs the server: graceful shutdown (on SIGTERM or SIGINT when `signals`) is cut
    /// short by cancellation after `shutdownTimeout`, and SIGQUIT cancels at once.
    private func groupConfiguration(signals: Bool) -> ServiceGroupConfiguration {
        var group = ServiceGroupConfiguration(services: [.init(service: self)], logger: logger)
        if signals {
            group.gracefulShutdownSignals = [.sigterm, .sigint]
            group.cancellationSignals = [.sigquit]
        }
        group.maximumGracefulShutdownDuration = .milliseconds(Int64(configuration.shutdownTimeout * 1000))
        return group
    }

    /// Runs one lifecycle sweep now (ends over-age activities, marks those past their dismissal date
    /// dismissed, forgets old ended ones).
    @discardableResult
    package func sweepLifecycle() async -> (ended: Int, dismissed: Int, forgotten: Int) {
        await lifecycle.sweep()
    }

    /// "address already in use" for a bind error, the error's own text otherwise.
    static func listenFailure(_ error: any Error) -> String {
        guard let io = error as? IOError else { return "\(error)" }
        return String(cString: strerror(io.errnoCode)).lowercased()
    }
}

/// Why the server could not start.
package enum ServerStartError: Error, Sendable, CustomStringConvertible {
    case cannotListen(host: String, port: Int, reason: String)
    /// `start()` on a server that already ran: make a new `LivePushServer` instead.
    case runsOnce
    /// The database serves the other APNs environment (one database per environment).
    case otherEnvironment(database: APNsEnvironment, server: APNsEnvironment, recordedAt: Date)

    package var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason); pick another --host/--port (0 picks a free port)"
        case .runsOnce:
            return "this LivePushServer has already run; make a new one to start again"
        case .otherEnvironment(let database, let server, let recordedAt):
            return "the database serves the \(database.rawValue) APNs environment (recorded \(recordedAt.ISO8601Format())), "
                + "and this server is for \(server.rawValue): a database serves one environment, or the servers would "
                + "send each other's pushes. Give this server a database of its own for \(server.rawValue) (--database), "
                + "or --environment \(database.rawValue) if it was meant to serve \(database.rawValue)"
        }
    }
}
