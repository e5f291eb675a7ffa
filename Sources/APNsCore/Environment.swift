/// Which APNs service a token belongs to. Development builds register with sandbox; App Store,
/// TestFlight and Ad Hoc builds with production. A token sent to the other one gets `BadDeviceToken`.
public enum APNsEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case sandbox
    case production

    /// The host of the device push API for this environment.
    public var host: String {
        switch self {
        case .sandbox: return "api.sandbox.push.apple.com"
        case .production: return "api.push.apple.com"
        }
    }

    /// Default port; APNs also listens on 2197 for networks that block 443.
    public static let defaultPort = 443
    public static let alternatePort = 2197
}

extension APNsEnvironment {
    /// The host of the broadcast channel management API (docs/apns-protocol.md §10.1).
    public var channelManagementHost: String {
        switch self {
        case .sandbox: return "api-manage-broadcast.sandbox.push.apple.com"
        case .production: return "api-manage-broadcast.push.apple.com"
        }
    }

    /// The port of the channel management API: 2195 for sandbox, 2196 for production.
    public var channelManagementPort: Int {
        switch self {
        case .sandbox: return 2195
        case .production: return 2196
        }
    }
}
