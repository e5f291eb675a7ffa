import APNsCore
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// The simulator's control API: plain HTTP/1.1 with JSON bodies (ISO 8601 dates), for registering apps,
/// devices, activities, keys and faults, reading the push log, and following the event stream.
/// Errors are 4xx `{"error":{"field":…,"message":…}}`.
public struct ControlServer: Sendable {
    /// The default control port.
    public static let defaultPort = 2198

    let world: DeviceWorld
    let keys: TrustedKeys
    let faults: FaultInjector
    let host: String
    let port: Int
    let caCertificatePEM: String
    let logger: Logger
    /// The world's clock when it can be set (`GET`/`POST /v1/clock`); nil: those routes answer 409.
    let clock: ScaledWallClock?
    /// How often the event stream sends a heartbeat comment.
    public var heartbeatInterval: Duration = .seconds(15)
    /// The running server's service group, for a graceful stop; shared by the copies of this value.
    private let group = RunningGroup()

    public init(
        world: DeviceWorld, keys: TrustedKeys, faults: FaultInjector, host: String, port: Int,
        caCertificatePEM: String, logger: Logger, clock: ScaledWallClock? = nil
    ) {
        self.clock = clock
        self.world = world
        self.keys = keys
        self.faults = faults
        self.host = host
        self.port = port
        self.caCertificatePEM = caCertificatePEM
        self.logger = logger
    }

    /// Serves until ``stop()`` (graceful: open responses finish; end the event streams first with
    /// `EventBus.close()`) or until the task is cancelled; `onRunning` gets the bound port (useful with
    /// port 0).
    public func run(onRunning: @escaping @Sendable (_ port: Int) async -> Void) async throws {
        let router = Router()
        router.middlewares.add(ControlErrorMiddleware())
        router.middlewares.add(ControlRequestGuard())
        DeviceRoutes(world: world).add(to: router)
        ChannelRoutes(world: world).add(to: router)
        ServiceRoutes(world: world, keys: keys, faults: faults, caCertificatePEM: caCertificatePEM).add(to: router)
        ClockRoutes(world: world, clock: clock).add(to: router)
        EventStreamRoute(events: world.events, heartbeat: heartbeatInterval).add(to: router)
        DashboardRoutes.add(to: router)
        let fallbackPort = port
        let logger = logger
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "livepush-simulator"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? fallbackPort
                logger.info("control API listening", metadata: ["port": "\(bound)"])
                await onRunning(bound)
            },
            logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        group.current.withLock { $0 = services }
        defer { group.current.withLock { $0 = nil } }
        try await services.run()
    }

    /// Stops accepting connections and returns once ``run(onRunning:)`` can end: it does when the open
    /// requests are answered.
    public func stop() async {
        await group.current.withLock { $0 }?.triggerGracefulShutdown()
    }

    /// The one place the copies of a ``ControlServer`` share.
    private final class RunningGroup: Sendable {
        let current = Mutex<ServiceGroup?>(nil)
    }
}
