import APNsCore
import Foundation

/// How the simulated APNs endpoint behaves. Defaults follow shared/apns-facts.md; every behaviour
/// Apple does not document is a setting here.
public struct EndpointConfiguration: Sendable {
    /// The address to listen on (loopback by default).
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 picks a free one.
    public var port: Int = APNsEnvironment.alternatePort
    /// The environment when `:authority` names neither Apple host.
    public var environment: APNsEnvironment = .sandbox
    /// SETTINGS_MAX_CONCURRENT_STREAMS until the first accepted request on a connection.
    public var initialMaxConcurrentStreams: Int = 1
    /// SETTINGS_MAX_CONCURRENT_STREAMS after the first accepted request.
    public var maxConcurrentStreams: Int = 1000
    /// A connection without any inbound frame for this long gets GOAWAY `IdleTimeout`; nil: never.
    public var idleTimeout: TimeInterval? = 3600
    /// How old a provider token's `iat` may be before `ExpiredProviderToken`.
    public var providerTokenLifetime: TimeInterval = 3600
    /// How far in the future `iat` may be; nil accepts any future `iat`.
    public var futureIssuedAtTolerance: TimeInterval? = 60
    /// The reason for an `iat` too far in the future (Apple does not document one).
    public var futureIssuedAtReason: APNsReason = .invalidProviderToken
    /// Accept `Bearer`, `BEARER`, … as well as `bearer`.
    public var bearerCaseInsensitive: Bool = true
    /// The spelling of the wrong-environment key reason: `BadEnvironmentKeyIdInToken` (documented) or
    /// `BadEnvironmentKeyInToken` (seen in the field).
    public var badEnvironmentKeyReason: String = APNsReason.badEnvironmentKeyIdInToken.rawValue
    /// Window in which a connection may replace its provider token only once.
    public var providerTokenUpdateWindow: TimeInterval = 20 * 60
    /// The reason when a connection bound to one team gets a token of another team.
    public var teamMismatchReason: APNsReason = .invalidProviderToken
    /// Accept uppercase hex in `apns-id`.
    public var acceptUppercaseAPNsID: Bool = true
    /// Reject a push to a `.push-type.liveactivity` topic without `apns-push-type` (`InvalidPushType`);
    /// false infers `liveactivity` from the topic.
    public var requirePushTypeForLiveActivity: Bool = true
    /// Reject `apns-priority: 1` on `liveactivity` pushes (`BadPriority`).
    public var rejectLowPriorityLiveActivity: Bool = true
    /// Reject `apns-priority: 10` on `background` pushes (`BadPriority`).
    public var rejectImmediateBackground: Bool = true
    /// Team ID → the bundle ids the team owns. A team listed here may push only to its bundle ids
    /// (`TopicDisallowed`); an unlisted team may push to any topic.
    public var teamBundleIDs: [String: Set<String>] = [:]
    /// The clock for `iat` checks, 410 timestamps and the token update window.
    public var clock: any WallClock = SystemWallClock()

    public init() {}
}
