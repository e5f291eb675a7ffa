import NIOHPACK

/// The headers of one request, read in a single pass: the pseudo headers, the apns headers APNs checks,
/// and whether any header name appeared twice.
struct RequestHeaderFields {
    var method: String?
    var path: String?
    var authority: String?
    /// HTTP/1-style `host`, which some HTTP/2 clients (aioapns) send instead of `:authority`.
    var host: String?
    var authorization: String?
    var pushType: String?
    var apnsID: String?
    var expiration: String?
    var priority: String?
    var topic: String?
    var collapseID: String?
    var channelID: String?
    var requestID: String?
    /// The first header name seen twice, if any.
    var duplicate: String?

    init(_ headers: HPACKHeaders) {
        var others: [String] = []
        for (name, value, _) in headers {
            switch name {
            case ":method": Self.set(&method, value, name, &duplicate)
            case ":path": Self.set(&path, value, name, &duplicate)
            case ":authority": Self.set(&authority, value, name, &duplicate)
            case "host": Self.set(&host, value, name, &duplicate)
            case "authorization": Self.set(&authorization, value, name, &duplicate)
            case "apns-push-type": Self.set(&pushType, value, name, &duplicate)
            case "apns-id": Self.set(&apnsID, value, name, &duplicate)
            case "apns-expiration": Self.set(&expiration, value, name, &duplicate)
            case "apns-priority": Self.set(&priority, value, name, &duplicate)
            case "apns-topic": Self.set(&topic, value, name, &duplicate)
            case "apns-collapse-id": Self.set(&collapseID, value, name, &duplicate)
            case "apns-channel-id": Self.set(&channelID, value, name, &duplicate)
            case "apns-request-id": Self.set(&requestID, value, name, &duplicate)
            default:
                if duplicate == nil, others.contains(name) { duplicate = name }
                others.append(name)
            }
        }
    }

    /// The host the client addressed: `:authority`, else `host`.
    var serverName: String? { authority ?? host }

    private static func set(_ slot: inout String?, _ value: String, _ name: String, _ duplicate: inout String?) {
        if slot != nil, duplicate == nil { duplicate = name }
        if slot == nil { slot = value }
    }
}
