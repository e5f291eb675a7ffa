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
            if let slot = Self.slots[name] {
                if self[keyPath: slot] == nil {
                    self[keyPath: slot] = value
                } else if duplicate == nil {
                    duplicate = name
                }
            } else {
                if duplicate == nil, others.contains(name) { duplicate = name }
                others.append(name)
            }
        }
    }

    /// The field each header APNs reads goes to; the first value of a name wins.
    private static let slots: [String: WritableKeyPath<RequestHeaderFields, String?> & Sendable] = [
        ":method": \.method,
        ":path": \.path,
        ":authority": \.authority,
        "host": \.host,
        "authorization": \.authorization,
        "apns-push-type": \.pushType,
        "apns-id": \.apnsID,
        "apns-expiration": \.expiration,
        "apns-priority": \.priority,
        "apns-topic": \.topic,
        "apns-collapse-id": \.collapseID,
        "apns-channel-id": \.channelID,
        "apns-request-id": \.requestID,
    ]

    /// The host the client addressed: `:authority`, else `host`.
    var serverName: String? { authority ?? host }
}
