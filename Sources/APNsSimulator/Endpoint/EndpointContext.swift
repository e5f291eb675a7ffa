import APNsCore
import Logging
import Metrics

/// What every connection of the endpoint shares: settings, trusted keys, faults, the devices, metrics.
final class EndpointContext: Sendable {
    let configuration: EndpointConfiguration
    /// Which API this endpoint serves.
    let role: EndpointRole
    let checks: PushRequestChecks
    /// The broadcast route's and the channel management port's checks.
    let broadcastChecks: BroadcastRequestChecks
    let keys: TrustedKeys
    let faults: FaultInjector
    let world: DeviceWorld
    let metrics: EndpointMetrics
    let logger: Logger

    init(
        configuration: EndpointConfiguration, role: EndpointRole = .apns, keys: TrustedKeys, faults: FaultInjector,
        world: DeviceWorld, metricsFactory: any MetricsFactory = MetricsSystem.factory, logger: Logger
    ) {
        self.metrics = EndpointMetrics(factory: metricsFactory)
        self.configuration = configuration
        self.role = role
        self.checks = PushRequestChecks(configuration: configuration, keys: keys)
        self.broadcastChecks = BroadcastRequestChecks(configuration: configuration, keys: keys)
        self.keys = keys
        self.faults = faults
        self.world = world
        self.logger = logger
    }

    /// The environment a request is for: production when `:authority` names a production APNs host,
    /// sandbox for a sandbox host, else the configured one.
    func environment(authority: String?) -> APNsEnvironment {
        guard let authority, !authority.isEmpty else { return configuration.environment }
        var host = Substring(authority)
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
        } else if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon {
            host = host[..<colon]
        }
        switch host.lowercased() {
        case "api.push.apple.com", "api-broadcast.push.apple.com", "api-manage-broadcast.push.apple.com":
            return .production
        case "api.sandbox.push.apple.com", "api-broadcast.sandbox.push.apple.com", "api.development.push.apple.com",
            "api-manage-broadcast.sandbox.push.apple.com":
            return .sandbox
        default:
            return configuration.environment
        }
    }
}

/// The API an endpoint listens for.
public enum EndpointRole: Sendable, Hashable {
    /// Device pushes (`/3/device/<token>`) and broadcasts (`/4/broadcasts/apps/<bundle id>`).
    case apns
    /// Broadcast channel management (`/1/apps/<bundle id>/channels`, `…/all-channels`).
    case channelManagement
}
