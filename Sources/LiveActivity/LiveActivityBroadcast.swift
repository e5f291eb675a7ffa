import APNsCore
import Foundation

/// A Live Activity broadcast to a channel: every activity subscribed to it gets the update or end
/// (docs/apns-protocol.md §10.2). `makeRequest()` checks everything and produces the
/// `APNsBroadcastRequest` a client sends.
public struct LiveActivityBroadcast: Sendable, Hashable {
    /// The app's plain bundle id (no topic suffix).
    public var bundleID: String
    /// The channel's base64 id.
    public var channelID: String
    /// 10, 5 or 1.
    public var priority: APNsPriority
    /// Required: `.immediately` for a channel without storage (policy 0), else until when APNs keeps it.
    public var expiration: APNsExpiration
    /// `apns-request-id`; nil lets APNs generate one.
    public var requestID: UUID?
    public var payload: LiveActivityPayload

    public init(
        bundleID: String, channelID: String, payload: LiveActivityPayload, priority: APNsPriority = .immediate,
        expiration: APNsExpiration = .immediately, requestID: UUID? = nil
    ) {
        self.bundleID = bundleID
        self.channelID = channelID
        self.payload = payload
        self.priority = priority
        self.expiration = expiration
        self.requestID = requestID
    }

    /// Checks the channel id, bundle id, expiration and payload, then builds the request.
    public func makeRequest() throws(LiveActivityBroadcastError) -> APNsBroadcastRequest {
        let channel: APNsChannelID
        do {
            channel = try APNsChannelID(channelID)
        } catch {
            throw .invalidChannelID(error)
        }
        try payload.validateForBroadcast()
        let body = payload.encoded()
        do {
            return try APNsBroadcastRequest(
                bundleID: bundleID, channelID: channel, priority: priority, expiration: expiration,
                requestID: requestID, body: body
            )
        } catch {
            throw .invalidRequest(error)
        }
    }
}

/// Why a broadcast cannot be sent.
public enum LiveActivityBroadcastError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Event `start`: a broadcast only updates or ends the activities subscribed to its channel.
    case startNotBroadcastable
    case invalidChannelID(APNsChannelID.ValidationError)
    case invalidPayload(LiveActivityPayloadError)
    case invalidRequest(APNsBroadcastRequest.ValidationError)

    public var description: String {
        switch self {
        case .startNotBroadcastable:
            return "event is 'start' on a broadcast; a broadcast can only update or end the activities subscribed "
                + "to its channel (start one with push-to-start and input-push-channel)"
        case .invalidChannelID(let error): return error.description
        case .invalidPayload(let error): return error.description
        case .invalidRequest(let error): return error.description
        }
    }
}
