import APNsCore
import Foundation

/// One HTTP/2 request as the connection sends it: device pushes, broadcasts and channel management
/// all travel in this shape over the same connections, pool and retry loop.
struct WireRequest: Sendable {
    var method: String
    var path: String
    /// apns header fields, names lowercase, without `authorization`.
    var fields: [(name: String, value: String)]
    var body: Data

    init(method: String, path: String, fields: [(name: String, value: String)], body: Data) {
        self.method = method
        self.path = path
        self.fields = fields
        self.body = body
    }

    init(_ request: APNsRequest) {
        self.init(method: "POST", path: request.path, fields: request.headers.fields, body: request.body)
    }

    init(_ request: APNsBroadcastRequest) {
        self.init(method: "POST", path: request.path, fields: request.fields, body: request.body)
    }

    init(_ request: APNsChannelRequest) {
        self.init(method: request.method, path: request.path, fields: request.fields, body: request.body)
    }
}

/// One HTTP/2 answer: the status, the apns headers any of the APIs return, and the body.
struct WireResponse: Sendable {
    var status: Int
    var apnsID: String?
    var requestID: String?
    var uniqueID: String?
    var channelID: String?
    var body: Data

    /// The typed reason of an error answer: APNs' JSON `reason`, or `.other` naming the status.
    var reason: APNsReason? {
        guard !(200..<300).contains(status) else { return nil }
        if let parsed = APNsErrorBody.parse(body) { return APNsReason(rawValue: parsed.reason) }
        return .other("HTTP \(status) without an APNs reason")
    }

    /// The answer as the retry policy and device pushes see it. `apns-request-id` stands in for
    /// `apns-id` on broadcast and channel answers, which carry no `apns-id`.
    var apnsResponse: APNsResponse {
        var response = APNsResponse(status: status, apnsID: apnsID ?? requestID, apnsUniqueID: uniqueID)
        if status != 200 {
            response.reason = reason ?? .other("HTTP \(status)")
            if let parsed = APNsErrorBody.parse(body) { response.timestamp = parsed.date }
        }
        return response
    }
}
