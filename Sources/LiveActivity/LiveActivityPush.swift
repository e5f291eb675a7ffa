import APNsCore
import Foundation

/// A Live Activity push to one token: where it goes, its apns headers and its payload. `makeRequest()`
/// checks everything and produces the `APNsRequest` a client sends.
public struct LiveActivityPush: Sendable, Hashable {
    /// The activity update token (update/end) or push-to-start token (start), as hex. Checked by
    /// `makeRequest()`.
    public var token: String
    /// `<bundle id>.push-type.liveactivity`.
    public var topic: String
    /// 10 (deliver now, counts against the hourly budget) or 5 (power-aware, free); nil leaves the header
    /// out, which APNs treats as 10.
    public var priority: APNsPriority?
    /// `apns-expiration`: when APNs may stop trying.
    public var expiration: APNsExpiration
    /// `apns-collapse-id` (at most 64 bytes).
    public var collapseID: String?
    /// `apns-id`; nil lets APNs generate one.
    public var apnsID: UUID?
    public var payload: LiveActivityPayload

    /// A push to an explicit topic (which must end in `.push-type.liveactivity`).
    public init(
        token: String,
        topic: String,
        payload: LiveActivityPayload,
        priority: APNsPriority? = .immediate,
        expiration: APNsExpiration = .serverDefault,
        collapseID: String? = nil,
        apnsID: UUID? = nil
    ) {
        self.token = token
        self.topic = topic
        self.payload = payload
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
    }

    /// A push to an app: the topic is the bundle id plus `.push-type.liveactivity`.
    public init(
        token: String,
        bundleID: String,
        payload: LiveActivityPayload,
        priority: APNsPriority? = .immediate,
        expiration: APNsExpiration = .serverDefault,
        collapseID: String? = nil,
        apnsID: UUID? = nil
    ) {
        self.init(
            token: token, topic: APNsPushType.liveactivity.topic(forBundleID: bundleID), payload: payload,
            priority: priority, expiration: expiration, collapseID: collapseID, apnsID: apnsID
        )
    }

    /// A push to an already-validated token.
    public init(
        token: DeviceToken,
        bundleID: String,
        payload: LiveActivityPayload,
        priority: APNsPriority? = .immediate,
        expiration: APNsExpiration = .serverDefault,
        collapseID: String? = nil,
        apnsID: UUID? = nil
    ) {
        self.init(
            token: token.hex, bundleID: bundleID, payload: payload, priority: priority,
            expiration: expiration, collapseID: collapseID, apnsID: apnsID
        )
    }

    /// Checks the token, headers and payload, then builds the request.
    public func makeRequest() throws(LiveActivityPushError) -> APNsRequest {
        let deviceToken: DeviceToken
        do {
            deviceToken = try DeviceToken(hex: token)
        } catch {
            throw .invalidToken(error)
        }
        if let priority, priority == .low { throw .unsupportedPriority(priority) }
        let headers: APNsRequestHeaders
        do {
            headers = try APNsRequestHeaders(
                pushType: .liveactivity, topic: topic, priority: priority, expiration: expiration,
                collapseID: collapseID, apnsID: apnsID
            )
        } catch {
            throw .invalidHeaders(error)
        }
        let body: Data
        do {
            body = try payload.validatedBody(maximumSize: APNsPushType.liveactivity.maximumPayloadSize)
        } catch {
            throw .invalidPayload(error)
        }
        return APNsRequest(token: deviceToken, headers: headers, body: body)
    }
}

/// Why a Live Activity push cannot be sent.
public enum LiveActivityPushError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token is empty, odd-length or not hexadecimal.
    case invalidToken(DeviceToken.ValidationError)
    /// The topic lacks `.push-type.liveactivity`, is empty, or the collapse id is over 64 bytes.
    case invalidHeaders(APNsRequestHeaders.ValidationError)
    /// Apple documents only priorities 5 and 10 for Live Activity pushes.
    case unsupportedPriority(APNsPriority)
    /// The payload breaks an event rule or is over 4096 bytes.
    case invalidPayload(LiveActivityPayloadError)

    public var description: String {
        switch self {
        case .invalidToken(let error): return error.description
        case .invalidHeaders(let error): return error.description
        case .unsupportedPriority(let priority):
            return "apns-priority \(priority.rawValue) is not used for Live Activity pushes; accepted: "
                + "10 (immediate) or 5 (conserves power)"
        case .invalidPayload(let error): return error.description
        }
    }
}
