import APNsCore

/// How the simulated broadcast service behaves (docs/apns-protocol.md §10). What Apple leaves open
/// is a setting here.
public struct BroadcastConfiguration: Sendable {
    /// Channels one app may have per environment; creating one more answers 400
    /// `CannotCreateChannelConfig` (Apple: 10,000).
    public var maximumChannelsPerApp: Int = 10_000
    /// The status of a successful create: 201 (documented) or 200 (reported by a client library).
    public var createStatus: Int = 201
    /// Bundle ids whose App ID lacks the broadcast capability: every broadcast and channel request for
    /// them answers 400 `FeatureNotEnabled`.
    public var disabledBundleIDs: Set<String> = []
    /// Match `apns-push-type` on broadcasts and `push-type` on create without regard to case (Apple's
    /// documentation spells it three ways); false accepts only `liveactivity` and `LiveActivity`.
    public var pushTypeCaseInsensitive: Bool = true
    /// Longest `apns-channel-id` accepted before 400 `BadChannelId` (Apple publishes no number).
    public var maximumChannelIDLength: Int = APNsChannelID.maximumLength
    /// Random bytes in a new channel id (its base64 form is longer).
    public var channelIDByteCount: Int = 16

    public init() {}
}
