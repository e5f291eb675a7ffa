extension APNsReason {
    /// One line for a person on what to do about this reason after a broadcast or a channel management
    /// request (docs/apns-protocol.md §10.3), where some reasons mean something else than for a push to a
    /// token.
    public var broadcastRemedy: String {
        switch self {
        case .badPath: return "Broadcasts go to POST /4/broadcasts/apps/<bundle id>; channels to /1/apps/<bundle id>/channels or /all-channels."
        case .methodNotAllowed: return "Create with POST, read and list with GET, delete with DELETE; broadcasts are POST."
        case .payloadTooLarge: return "Shrink the broadcast body to 5120 bytes or fewer."
        case .badExpirationDate: return "Send apns-expiration as Unix seconds; a channel with storage policy 0 takes only 0."
        case .badPriority: return "Send apns-priority 10, 5 or 1."
        case .topicDisallowed: return "Give the plain bundle id, without the .push-type.liveactivity suffix."
        case .invalidPushType: return "Send push type liveactivity (LiveActivity in a channel's create body)."
        case .badMessageID: return "Send apns-request-id as a lowercase canonical UUID (8-4-4-4-12)."
        case .channelNotRegistered:
            return
                "The channel does not exist for this app and environment (deleted, mistyped, or the other environment); list them with `livepush channels list`."
        case .featureNotEnabled: return "Turn on the Broadcast Capability for the App ID (Push Notifications in the developer portal)."
        case .topicMismatch: return "The key or certificate does not cover this bundle id; check --bundle-id and the key's team."
        default: return remedy
        }
    }
}
