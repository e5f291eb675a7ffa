import APNsCore
import Foundation

/// How the simulated APNs endpoint behaves. Defaults follow docs/apns-protocol.md; every behaviour
/// Apple does not document is a setting here (docs/apns-protocol.md §11).
public struct EndpointConfiguration: Sendable {
    /// The address to listen on (loopback by default).
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 picks a free one.
    public var port: Int = APNsEnvironment.alternatePort
    /// The environment when `:authority` names neither Apple host.
    public var environment: APNsEnvironment = .sandbox
    /// Speak HTTP/2 to a TLS client that offered no ALPN (prior knowledge), as APNs does for clients
    /// such as aioapns and Pushy; false closes such connections. A client that negotiates HTTP/1.1 is
    /// always closed.
    public var acceptConnectionsWithoutALPN: Bool = true
    /// SETTINGS_MAX_CONCURRENT_STREAMS until the first accepted request on a connection.
    public var initialMaxConcurrentStreams: Int = 1
    /// SETTINGS_MAX_CONCURRENT_STREAMS after the first accepted request.
    public var maxConcurrentStreams: Int = 1000
    /// Resets (RST_STREAM) of streams not yet answered that a connection may send within
    /// `unansweredResetWindow` before it gets GOAWAY ENHANCE_YOUR_CALM (the HTTP/2 "rapid reset" abuse).
    /// Resets of streams already answered never count: clients that do not read an answer's body
    /// reset its stream, and APNs keeps such connections open. nil: no limit.
    public var maxUnansweredResets: Int? = 200
    /// The window for `maxUnansweredResets`.
    public var unansweredResetWindow: TimeInterval = 30
    /// The `reason` in that GOAWAY's debug data (Apple documents none).
    public var unansweredResetReason: String = APNsReason.tooManyRequests.rawValue
    /// A connection without any inbound frame for this long gets GOAWAY `IdleTimeout`; nil: never.
    public var idleTimeout: TimeInterval? = 3600
    /// How old a provider token's `iat` may be before `ExpiredProviderToken`.
    public var providerTokenLifetime: TimeInterval = 3600
    /// How far in the future `iat` may be; nil accepts any future `iat`.
    public var futureIssuedAtTolerance: TimeInterval? = 60
    /// The reason for an `iat` too far in the future (Apple does not document one).
    public var futureIssuedAtReason: APNsReason = .invalidProviderToken
    /// Accept an `iat` claim written as a string of digits (`"iat":"1763900000"`). Two widely used
    /// client libraries write it so and APNs accepts their tokens; false answers InvalidProviderToken.
    public var acceptStringIssuedAt: Bool = true
    /// Accept `Bearer`, `BEARER`, … as well as `bearer`.
    public var bearerCaseInsensitive: Bool = true
    /// The spelling of the wrong-environment key reason: `BadEnvironmentKeyIdInToken` (documented) or
    /// `BadEnvironmentKeyInToken` (seen in the field).
    public var badEnvironmentKeyReason: String = APNsReason.badEnvironmentKeyIDInToken.rawValue
    /// Window in which a connection may replace its provider token only once.
    public var providerTokenUpdateWindow: TimeInterval = 20 * 60
    /// The reason when a connection bound to one team gets a token of another team.
    public var teamMismatchReason: APNsReason = .invalidProviderToken
    /// Let two different team-scoped keys of one team share a connection. Apple binds a connection to
    /// the key of its first push and answers `UnrelatedKeyIdInToken` for an unrelated key; whether two
    /// team-scoped keys count as related is not documented. Off: a connection carries one key (and its
    /// related key) only.
    public var teamKeysShareConnections: Bool = false
    /// The reason for a push to a topic outside a topic-specific key's topics. Apple names
    /// `TopicDisallowed` for a topic a key may not use but does not pair reasons with cases.
    public var keyTopicReason: APNsReason = .topicDisallowed
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
    /// The answer to a Live Activity push on a connection authenticated by a client certificate. Apple
    /// said at WWDC23 that Live Activities need token-based connections, and pushes over certificates are
    /// reported to get 400 `TopicDisallowed` (a field report, not Apple documentation). nil accepts them
    /// for the certificate's bundle id.
    public var liveActivityOverCertificateReason: APNsReason? = .topicDisallowed
    /// The port of the broadcast channel management API (docs/apns-protocol.md §10.1), served with the
    /// same TLS and authentication as the APNs port; 0 picks a free one. nil: 2195, Apple's sandbox
    /// management port, or a free one when `port` is 0 (so that in-process simulators, as tests and the
    /// demo start them, never compete for a fixed port).
    public var managePort: Int?

    /// The management port to bind.
    var resolvedManagePort: Int {
        managePort ?? (port == 0 ? 0 : APNsEnvironment.sandbox.channelManagementPort)
    }
    /// Broadcast channels settings: limits, answers Apple leaves open, apps without the capability.
    public var broadcast = BroadcastConfiguration()
    /// The clock for `iat` checks, 410 timestamps and the token update window.
    public var clock: any WallClock = SystemWallClock()

    public init() {}
}
