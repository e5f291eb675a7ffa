import Foundation

/// One device push, ready to send: where to (`/3/device/<token>`), the apns headers, and the JSON body.
public struct APNsRequest: Sendable, Hashable {
    public var token: DeviceToken
    public var headers: APNsRequestHeaders
    public var body: Data

    public init(token: DeviceToken, headers: APNsRequestHeaders, body: Data) {
        self.token = token
        self.headers = headers
        self.body = body
    }

    /// The request path.
    public var path: String { "/3/device/\(token.hex)" }
}
