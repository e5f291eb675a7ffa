import APNsCore
import Logging
import Metrics
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// The simulated APNs device-push endpoint: HTTP/2 over TLS 1.2+ with ALPN `h2` only, answering
/// `POST /3/device/<token>` as APNs does (see `PushRequestChecks` for the checks and their order).
public final class APNsEndpointServer: Sendable {
    /// Why the endpoint could not start.
    public enum StartError: Error, Sendable, CustomStringConvertible {
        case badTLSIdentity(String)
        case cannotBind(host: String, port: Int, reason: String)
        case alreadyStarted

        public var description: String {
            switch self {
            case .badTLSIdentity(let reason):
                return
                    "the simulator's TLS certificate or key is unusable: \(reason); delete the data directory's server.pem and server-key.pem to reissue them"
            case .cannotBind(let host, let port, let reason):
                return "cannot listen on \(host):\(port): \(reason); pick another --host/--port (0 picks a free port)"
            case .alreadyStarted:
                return "the endpoint is already running"
            }
        }
    }

    private struct Running: Sendable {
        var server: any Channel
        var port: Int
    }

    private let shared: EndpointContext
    private let certificateChainPEM: String
    private let privateKeyPEM: String
    private let clientCertificateAuthorityPEM: String?
    private let group: any EventLoopGroup
    private let listenPort: Int
    private let state = Mutex<(running: Running?, connections: [ObjectIdentifier: any Channel], nextID: Int)>((nil, [:], 1))

    /// - Parameters:
    ///   - certificateChainPEM: the server certificate (then any intermediates), PEM.
    ///   - privateKeyPEM: the server certificate's key, PEM.
    ///   - clientCertificateAuthorityPEM: the CA whose provider certificates authenticate connections
    ///     (`ProviderCertificate`, the simulator's `ca.pem`). The TLS handshake then asks for a client
    ///     certificate without requiring one, and fails for a certificate this CA did not sign. nil: no
    ///     client certificates, token authentication only.
    ///   - metricsFactory: where `livepush_simulator_apns_responses_total{status,reason}` is counted.
    public init(
        configuration: EndpointConfiguration, certificateChainPEM: String, privateKeyPEM: String,
        clientCertificateAuthorityPEM: String? = nil, keys: TrustedKeys, faults: FaultInjector, world: DeviceWorld,
        role: EndpointRole = .apns,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "livepush.simulator.apns")
    ) {
        self.listenPort = role == .apns ? configuration.port : configuration.resolvedManagePort
        self.shared = EndpointContext(
            configuration: configuration, role: role, keys: keys, faults: faults, world: world, metricsFactory: metricsFactory, logger: logger
        )
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.clientCertificateAuthorityPEM = clientCertificateAuthorityPEM
        self.group = group
    }

    /// The bound port once started.
    public var port: Int? { state.withLock { $0.running?.port } }

    /// Starts listening; returns the bound port (useful with port 0).
    @discardableResult
    public func start() async throws -> Int {
        if state.withLock({ $0.running != nil }) { throw StartError.alreadyStarted }
        let context = try makeSSLContext()
        let configuration = shared.configuration
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let connectionID = self.register(channel)
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(RawCloseHandler())
                    try operations.addHandler(NIOSSLServerHandler(context: context))
                    try operations.addHandler(ALPNGate(shared: self.shared, connectionID: connectionID))
                }
            }
        let server: any Channel
        do {
            server = try await bootstrap.bind(host: configuration.host, port: listenPort).get()
        } catch {
            throw StartError.cannotBind(host: configuration.host, port: listenPort, reason: ListenCheck.reason(error))
        }
        let port = server.localAddress?.port ?? listenPort
        state.withLock { $0.running = Running(server: server, port: port) }
        shared.logger.info(
            shared.role == .apns ? "APNs endpoint listening" : "channel management endpoint listening",
            metadata: [
                "host": "\(configuration.host)", "port": "\(port)", "environment": "\(configuration.environment.rawValue)",
            ])
        return port
    }

    /// Stops accepting connections, sends GOAWAY `Shutdown` on every open one, lets streams in flight
    /// finish (up to `gracePeriod`), then closes what is left.
    public func shutdown(gracePeriod: TimeAmount = .seconds(5)) async {
        let (running, connections) = state.withLock { state in
            let snapshot = (state.running, Array(state.connections.values))
            state.running = nil
            return snapshot
        }
        guard let running else { return }
        try? await running.server.close()
        for connection in connections {
            connection.pipeline.fireUserInboundEventTriggered(EndpointShutdownEvent())
        }
        let deadline = NIODeadline.now() + gracePeriod
        for connection in connections {
            let remaining = deadline - NIODeadline.now()
            if remaining > .zero {
                let closed = connection.closeFuture
                let timeout = connection.eventLoop.scheduleTask(in: remaining) { connection.close(promise: nil) }
                try? await closed.get()
                timeout.cancel()
            } else {
                try? await connection.close()
            }
        }
        shared.logger.info("APNs endpoint stopped")
    }

    private func register(_ channel: any Channel) -> Int {
        let key = ObjectIdentifier(channel)
        let id = state.withLock { state in
            state.connections[key] = channel
            defer { state.nextID += 1 }
            return state.nextID
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.state.withLock { $0.connections.removeValue(forKey: key) }
        }
        return id
    }

    private func makeSSLContext() throws -> NIOSSLContext {
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
            let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)
            )
            tls.minimumTLSVersion = .tlsv12
            // http/1.1 is listed only so that a client offering nothing else negotiates it and can be told
            // apart from a client offering no ALPN at all (HTTP/2 with prior knowledge); ALPNGate closes it.
            tls.applicationProtocols = ["h2", "http/1.1"]
            if let clientCertificateAuthorityPEM {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(clientCertificateAuthorityPEM.utf8)))
                tls.certificateVerification = .optionalVerification
                tls.sendCANameList = true
            }
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw StartError.badTLSIdentity("\(error)")
        }
    }
}
