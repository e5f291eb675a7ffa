import APNsCore
import Foundation
import Logging
import NIOCore
import Synchronization

/// Everything `livepush simulator` runs, in one value.
public struct SimulatorConfiguration: Sendable {
    /// The APNs endpoint (host, port 2197, environment, every configurable APNs behaviour).
    public var endpoint = EndpointConfiguration()
    /// The control API's address (plain HTTP).
    public var controlHost = "127.0.0.1"
    public var controlPort = ControlServer.defaultPort
    /// Where the CA and server certificate live.
    public var dataDirectory = SimulatorDataDirectory.defaultPath()
    /// Host names or IP addresses the server certificate covers besides localhost and Apple's hosts.
    public var extraCertificateNames: [String] = []
    /// How the simulated devices behave.
    public var deviceRules = DeviceRules()
    /// How fast the devices' time runs (the 8 h and 12 h limits, stale and dismissal dates): 60 plays an
    /// hour in a minute. The endpoint's JWT checks keep `endpoint.clock`, the provider's time.
    public var clockRate = ClockRate.realTime
    /// Seed for fault shares (reproducible runs); nil: random.
    public var faultSeed: UInt64?
    /// How long `shutdown()` lets streams in flight finish after GOAWAY `Shutdown`.
    public var shutdownGracePeriod: TimeInterval = 5

    public init() {}
}

/// The local APNs + device simulator: trusted keys, faults, simulated devices, the TLS APNs endpoint
/// and the control API, assembled and run together.
public final class Simulator: Sendable {
    public let configuration: SimulatorConfiguration
    /// Provider keys the endpoint trusts (also registered through the control API).
    public let keys: TrustedKeys
    /// Injected faults.
    public let faults: FaultInjector
    /// The simulated devices.
    public let world: DeviceWorld
    /// The devices' time: `endpoint.clock` at `clockRate`, moved forward through the control API.
    public let clock: ScaledWallClock
    /// The CA (what clients trust) and the server certificate.
    public let certificates: SimulatorCertificates
    private let endpoint: APNsEndpointServer
    /// The broadcast channel management API, on its own port with the same TLS and authentication.
    private let management: APNsEndpointServer
    private let logger: Logger
    private let running = Mutex<(control: Task<Void, Never>?, server: ControlServer?, controlPort: Int?)>((nil, nil, nil))

    /// Loads or creates the certificates; nothing listens until `start()`.
    public init(
        configuration: SimulatorConfiguration, keys: TrustedKeys = TrustedKeys(),
        logger: Logger = Logger(label: "livepush.simulator")
    ) throws(CertificateStoreError) {
        self.configuration = configuration
        self.logger = logger
        self.keys = keys
        self.faults = FaultInjector(seed: configuration.faultSeed)
        self.clock = ScaledWallClock(rate: configuration.clockRate, base: configuration.endpoint.clock)
        self.world = DeviceWorld(clock: clock, rules: configuration.deviceRules, logger: logger)
        self.certificates = try SimulatorCertificates.loadOrCreate(
            directory: configuration.dataDirectory, extraNames: configuration.extraCertificateNames, logger: logger
        )
        self.endpoint = APNsEndpointServer(
            configuration: configuration.endpoint, certificateChainPEM: certificates.serverCertificatePEM,
            privateKeyPEM: certificates.serverPrivateKeyPEM, clientCertificateAuthorityPEM: certificates.caCertificatePEM,
            keys: keys, faults: faults, world: world, logger: logger
        )
        self.management = APNsEndpointServer(
            configuration: configuration.endpoint, certificateChainPEM: certificates.serverCertificatePEM,
            privateKeyPEM: certificates.serverPrivateKeyPEM, clientCertificateAuthorityPEM: certificates.caCertificatePEM,
            keys: keys, faults: faults, world: world, role: .channelManagement, logger: logger
        )
    }

    /// The path clients trust: `DATA_DIR/ca.pem`.
    public var caCertificatePath: String { certificates.caCertificatePath }
    /// The APNs endpoint's port once started.
    public var apnsPort: Int? { endpoint.port }
    /// The channel management endpoint's port once started.
    public var managePort: Int? { management.port }
    /// The control API's port once started.
    public var controlPort: Int? { running.withLock { $0.controlPort } }

    /// Starts the APNs endpoint and the control API; returns once both listen.
    public func start() async throws {
        try await endpoint.start()
        do {
            try await management.start()
        } catch {
            await endpoint.shutdown()
            throw error
        }
        let control = ControlServer(
            world: world, keys: keys, faults: faults, host: configuration.controlHost, port: configuration.controlPort,
            caCertificatePEM: certificates.caCertificatePEM, logger: logger, clock: clock
        )
        let (started, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let task = Task {
            do {
                try await control.run { port in continuation.yield(.success(port)) }
            } catch {
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }
        running.withLock {
            $0.control = task
            $0.server = control
        }
        var port: Int?
        do {
            for await result in started {
                port = try result.get()
                break
            }
        } catch {
            await endpoint.shutdown()
            await management.shutdown()
            throw error
        }
        guard let port else {
            await endpoint.shutdown()
            await management.shutdown()
            throw SimulatorError.controlServerStopped
        }
        running.withLock { $0.controlPort = port }
    }

    /// Graceful stop: GOAWAY `Shutdown` on every APNs connection, then the control API (the event
    /// streams end, open requests are answered; after the grace period it is cancelled).
    public func shutdown() async {
        let grace = TimeAmount.nanoseconds(Int64(configuration.shutdownGracePeriod * 1_000_000_000))
        await endpoint.shutdown(gracePeriod: grace)
        await management.shutdown(gracePeriod: grace)
        let (task, server) = running.withLock { state in
            defer { state = (nil, nil, nil) }
            return (state.control, state.server)
        }
        guard let task else { return }
        world.events.close()
        await server?.stop()
        let seconds = configuration.shutdownGracePeriod
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await task.value }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(max(seconds, 0.1) * 1000)))
                task.cancel()
            }
            await group.next()
            group.cancelAll()
        }
    }
}

/// Why the simulator stopped or could not start.
public enum SimulatorError: Error, Sendable, CustomStringConvertible {
    case controlServerStopped

    public var description: String {
        switch self {
        case .controlServerStopped:
            return "the control API stopped before it was listening (is the control port taken? pick another with --control-port)"
        }
    }
}
