/// The `reason` APNs gives for a rejected request or a closed connection (docs/apns-protocol.md §4 and §10).
/// Reasons this version does not know are kept as `.other(raw)`.
public enum APNsReason: Sendable, Hashable, CustomStringConvertible {
    // 400
    case badCollapseID
    case badDeviceToken
    case badExpirationDate
    case badMessageID
    case badPriority
    case badTopic
    case deviceTokenNotForTopic
    case duplicateHeaders
    case idleTimeout
    case invalidPushType
    case missingDeviceToken
    case missingTopic
    case payloadEmpty
    case topicDisallowed
    // 403
    case badCertificate
    case badCertificateEnvironment
    case expiredProviderToken
    case forbidden
    case invalidProviderToken
    case missingProviderToken
    case unrelatedKeyIDInToken
    /// Apple documents `BadEnvironmentKeyIdInToken`; field reports show `BadEnvironmentKeyInToken`.
    /// Both parse to this case; `rawValue` keeps the documented spelling.
    case badEnvironmentKeyIDInToken
    // 404, 405
    case badPath
    case methodNotAllowed
    // 410
    case expiredToken
    case unregistered
    // 413
    case payloadTooLarge
    // 429
    case tooManyProviderTokenUpdates
    case tooManyRequests
    // 500, 503
    case internalServerError
    case serviceUnavailable
    case shutdown
    // Broadcast and channel management (iOS 18)
    case featureNotEnabled
    case missingChannelID
    case badChannelID
    case channelNotRegistered
    case badRequestParams
    case badRequestPayload
    case missingPushType
    case cannotCreateChannelConfig
    case topicMismatch
    case missingChannelQueueSize
    /// A reason string this version does not know, kept as sent.
    case other(String)

    /// Every reason this version knows, for exhaustive tests and documentation.
    public static let known: [APNsReason] = [
        .badCollapseID, .badDeviceToken, .badExpirationDate, .badMessageID, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed, .badCertificate, .badCertificateEnvironment,
        .expiredProviderToken, .forbidden, .invalidProviderToken, .missingProviderToken,
        .unrelatedKeyIDInToken, .badEnvironmentKeyIDInToken, .badPath, .methodNotAllowed, .expiredToken,
        .unregistered, .payloadTooLarge, .tooManyProviderTokenUpdates, .tooManyRequests,
        .internalServerError, .serviceUnavailable, .shutdown, .featureNotEnabled, .missingChannelID,
        .badChannelID, .channelNotRegistered, .badRequestParams, .badRequestPayload, .missingPushType,
        .cannotCreateChannelConfig, .topicMismatch, .missingChannelQueueSize,
    ]

    private static let byRawValue: [String: APNsReason] = {
        var table = [String: APNsReason]()
        for reason in known { table[reason.rawValue] = reason }
        table["BadEnvironmentKeyInToken"] = .badEnvironmentKeyIDInToken
        table["Service Unavailable"] = .serviceUnavailable
        return table
    }()

    public init(rawValue: String) {
        self = Self.byRawValue[rawValue] ?? .other(rawValue)
    }

    public var rawValue: String {
        switch self {
        case .badCollapseID: return "BadCollapseId"
        case .badDeviceToken: return "BadDeviceToken"
        case .badExpirationDate: return "BadExpirationDate"
        case .badMessageID: return "BadMessageId"
        case .badPriority: return "BadPriority"
        case .badTopic: return "BadTopic"
        case .deviceTokenNotForTopic: return "DeviceTokenNotForTopic"
        case .duplicateHeaders: return "DuplicateHeaders"
        case .idleTimeout: return "IdleTimeout"
        case .invalidPushType: return "InvalidPushType"
        case .missingDeviceToken: return "MissingDeviceToken"
        case .missingTopic: return "MissingTopic"
        case .payloadEmpty: return "PayloadEmpty"
        case .topicDisallowed: return "TopicDisallowed"
        case .badCertificate: return "BadCertificate"
        case .badCertificateEnvironment: return "BadCertificateEnvironment"
        case .expiredProviderToken: return "ExpiredProviderToken"
        case .forbidden: return "Forbidden"
        case .invalidProviderToken: return "InvalidProviderToken"
        case .missingProviderToken: return "MissingProviderToken"
        case .unrelatedKeyIDInToken: return "UnrelatedKeyIdInToken"
        case .badEnvironmentKeyIDInToken: return "BadEnvironmentKeyIdInToken"
        case .badPath: return "BadPath"
        case .methodNotAllowed: return "MethodNotAllowed"
        case .expiredToken: return "ExpiredToken"
        case .unregistered: return "Unregistered"
        case .payloadTooLarge: return "PayloadTooLarge"
        case .tooManyProviderTokenUpdates: return "TooManyProviderTokenUpdates"
        case .tooManyRequests: return "TooManyRequests"
        case .internalServerError: return "InternalServerError"
        case .serviceUnavailable: return "ServiceUnavailable"
        case .shutdown: return "Shutdown"
        case .featureNotEnabled: return "FeatureNotEnabled"
        case .missingChannelID: return "MissingChannelId"
        case .badChannelID: return "BadChannelId"
        case .channelNotRegistered: return "ChannelNotRegistered"
        case .badRequestParams: return "BadRequestParams"
        case .badRequestPayload: return "BadRequestPayload"
        case .missingPushType: return "MissingPushType"
        case .cannotCreateChannelConfig: return "CannotCreateChannelConfig"
        case .topicMismatch: return "TopicMismatch"
        case .missingChannelQueueSize: return "MissingChannelQueueSize"
        case .other(let raw): return raw
        }
    }

    public var description: String { rawValue }

    /// The HTTP status Apple answers with for this reason (for `.other`, 400).
    public var status: Int {
        switch self {
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden,
            .invalidProviderToken, .missingProviderToken, .unrelatedKeyIDInToken,
            .badEnvironmentKeyIDInToken, .topicMismatch:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .expiredToken, .unregistered: return 410
        case .payloadTooLarge: return 413
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        default: return 400
        }
    }

    /// What a provider should do after this reason, per Apple's retry guidance.
    public var advice: APNsRetryAdvice {
        switch self {
        case .badDeviceToken, .deviceTokenNotForTopic, .forbidden, .expiredToken, .unregistered,
            .payloadTooLarge, .badEnvironmentKeyIDInToken, .badPath, .methodNotAllowed,
            .badCertificate, .badCertificateEnvironment, .featureNotEnabled, .topicMismatch:
            return .neverRetry
        case .expiredProviderToken:
            return .retryWithNewProviderToken
        case .unrelatedKeyIDInToken, .idleTimeout:
            return .retryOnNewConnection
        case .tooManyRequests, .tooManyProviderTokenUpdates, .internalServerError, .serviceUnavailable:
            return .retryWithBackoff
        case .shutdown:
            return .retryOnNewConnection
        case .other:
            return .fixRequest
        default:
            return .fixRequest
        }
    }

    /// True when this reason means the device token is dead for its topic: stop using it until the app
    /// reports a token again.
    public var invalidatesToken: Bool {
        switch self {
        case .badDeviceToken, .deviceTokenNotForTopic, .expiredToken, .unregistered: return true
        default: return false
        }
    }

    /// One line for a person on what to do about this reason.
    public var remedy: String {
        switch self {
        case .badCollapseID: return "Shorten apns-collapse-id to 64 bytes or fewer."
        case .badDeviceToken:
            return
                "The token is malformed, unknown, or for the other environment (sandbox vs production); check --environment and stop using this token."
        case .badExpirationDate: return "Send apns-expiration as Unix seconds (0 means try once)."
        case .badMessageID: return "Send apns-id as a lowercase canonical UUID (8-4-4-4-12)."
        case .badPriority: return "Use apns-priority 5 or 10 for Live Activities."
        case .badTopic: return "Check apns-topic: for Live Activities it is <bundle id>.push-type.liveactivity."
        case .deviceTokenNotForTopic: return "The token belongs to another app; check the bundle id and stop using this token for it."
        case .duplicateHeaders: return "Send each apns header once."
        case .idleTimeout: return "The connection sat idle too long; reconnect."
        case .invalidPushType: return "Send apns-push-type: liveactivity for Live Activity pushes."
        case .missingDeviceToken: return "Put the device token in the path: /3/device/<token>."
        case .missingTopic: return "Send apns-topic: <bundle id>.push-type.liveactivity."
        case .payloadEmpty: return "Send a JSON body with an aps dictionary."
        case .topicDisallowed: return "This key or connection may not push to this topic; check the bundle id and the key's topics."
        case .badCertificate: return "The client certificate is invalid."
        case .badCertificateEnvironment: return "The client certificate is for the other environment."
        case .expiredProviderToken: return "The provider token is over an hour old; sign a new one (clients renew it automatically)."
        case .forbidden: return "The action is not allowed for this key or team."
        case .invalidProviderToken: return "The JWT does not verify: check the key id, team id and .p8 key, and that it is signed ES256."
        case .missingProviderToken: return "Send authorization: bearer <JWT> (make one with `livepush jwt`)."
        case .unrelatedKeyIDInToken: return "The JWT's key is unrelated to the key used first on this connection; open a new connection."
        case .badEnvironmentKeyIDInToken: return "The key is restricted to the other environment; use a key for this environment."
        case .badPath: return "The request path must be /3/device/<token>."
        case .methodNotAllowed: return "Use POST."
        case .expiredToken: return "The token has expired; stop using it and wait for the app to report a new one."
        case .unregistered: return "The token is no longer active for this topic; stop sending to it unless the app reports it again."
        case .payloadTooLarge: return "Shrink the payload to 4096 bytes or fewer (trim content-state or alert text)."
        case .tooManyProviderTokenUpdates: return "Reuse one provider token for 20-60 minutes instead of signing new ones."
        case .tooManyRequests: return "Too many pushes in a row to this token; slow down and retry later."
        case .internalServerError: return "APNs had an internal error; retry later with back-off."
        case .serviceUnavailable: return "APNs is unavailable; retry later with back-off."
        case .shutdown: return "The APNs server is shutting down; reconnect and retry."
        case .featureNotEnabled: return "Enable the broadcast capability for the App ID."
        case .missingChannelID: return "Send apns-channel-id."
        case .badChannelID: return "The channel id is badly encoded or too long."
        case .channelNotRegistered: return "The channel does not exist."
        case .badRequestParams: return "Remove unknown attributes from the JSON body."
        case .badRequestPayload: return "The body is not valid JSON."
        case .missingPushType: return "Send apns-push-type."
        case .cannotCreateChannelConfig: return "The app has reached its channel limit."
        case .topicMismatch: return "The bundle id is not covered by this key."
        case .missingChannelQueueSize: return "Send message-storage-policy 0 or 1."
        case .other(let raw): return "APNs answered with a reason this version does not know (\(raw))."
        }
    }
}

/// What to do after a failed push.
public enum APNsRetryAdvice: String, Sendable, Hashable {
    /// The token or request can never succeed: do not retry.
    case neverRetry
    /// The request is malformed: it can succeed only once fixed.
    case fixRequest
    /// Sign a new provider token, then retry once.
    case retryWithNewProviderToken
    /// Retry on a new connection.
    case retryOnNewConnection
    /// Retry later, with exponential back-off.
    case retryWithBackoff
}
