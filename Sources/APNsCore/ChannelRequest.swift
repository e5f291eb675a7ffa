import Foundation

/// One request to the broadcast channel management API (docs/apns-protocol.md §10.1), on
/// `api-manage-broadcast(.sandbox).push.apple.com`.
public struct APNsChannelRequest: Sendable, Hashable {
    public enum Operation: Sendable, Hashable {
        /// `POST /1/apps/<bundle id>/channels` with `{"message-storage-policy":n,"push-type":"LiveActivity"}`.
        case create(APNsMessageStoragePolicy)
        /// `GET /1/apps/<bundle id>/channels` with `apns-channel-id`.
        case read(APNsChannelID)
        /// `DELETE /1/apps/<bundle id>/channels` with `apns-channel-id`.
        case delete(APNsChannelID)
        /// `GET /1/apps/<bundle id>/all-channels`.
        case list
    }

    public var bundleID: String
    public var operation: Operation
    /// `apns-request-id`, echoed back; nil lets APNs generate one.
    public var requestID: UUID?

    /// The `push-type` value of a channel: only Live Activities.
    public static let channelPushType = "LiveActivity"

    public init(bundleID: String, operation: Operation, requestID: UUID? = nil) throws(APNsBroadcastRequest.ValidationError) {
        try APNsBroadcastRequest.checkBundleID(bundleID)
        self.bundleID = bundleID
        self.operation = operation
        self.requestID = requestID
    }

    public var method: String {
        switch operation {
        case .create: return "POST"
        case .read, .list: return "GET"
        case .delete: return "DELETE"
        }
    }

    public var path: String {
        switch operation {
        case .create, .read, .delete: return "/1/apps/\(APNsPath.segment(bundleID))/channels"
        case .list: return "/1/apps/\(APNsPath.segment(bundleID))/all-channels"
        }
    }

    /// The header fields, names lowercase, without `authorization`.
    public var fields: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        switch operation {
        case .read(let id), .delete(let id): out.append(("apns-channel-id", id.base64))
        case .create, .list: break
        }
        if let requestID { out.append(("apns-request-id", requestID.lowercased)) }
        return out
    }

    /// The JSON body (only for create).
    public var body: Data {
        guard case .create(let policy) = operation else { return Data() }
        return Data(#"{"message-storage-policy":\#(policy.rawValue),"push-type":"\#(Self.channelPushType)"}"#.utf8)
    }
}
