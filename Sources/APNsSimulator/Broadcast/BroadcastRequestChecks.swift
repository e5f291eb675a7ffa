import APNsCore
import Foundation
import LiveActivity

/// The checks of the simulated broadcast service, for both of its APIs (docs/apns-protocol.md §10.3).
/// Apple documents the reasons, not their order; this order puts the cheap, stateless checks first as
/// `PushRequestChecks` does, with authentication before anything about the app.
///
/// Broadcast (`POST /4/broadcasts/apps/<bundle id>` on the APNs port):
/// 1. Method `POST`, else 405 `MethodNotAllowed`. 2. Path: no bundle id or more path: 404 `BadPath`; a
/// `.push-type.liveactivity` suffix: 400 `TopicDisallowed`. 3. A header sent twice: 400 `DuplicateHeaders`.
/// 4. Authentication as for device pushes (the JWT and certificate reasons). 5. The bundle id not covered
/// by the key's topics, the team's bundle ids or the certificate: 403 `TopicMismatch`. 6. The app without
/// the broadcast capability: 400 `FeatureNotEnabled`. 7. `apns-channel-id` missing: 400 `MissingChannelId`;
/// not base64 or too long: 400 `BadChannelId`. 8. `apns-push-type` missing: 400 `MissingPushType`; not
/// `liveactivity`: 400 `InvalidPushType`. 9. `apns-request-id` not a canonical UUID: 400 `BadMessageId`.
/// 10. `apns-expiration` missing or not whole Unix seconds: 400 `BadExpirationDate`. 11. `apns-priority`
/// missing or not 10, 5 or 1: 400 `BadPriority`. 12. Body empty: 400 `PayloadEmpty`; over 5120 bytes: 413
/// `PayloadTooLarge`; not JSON: 400 `BadRequestPayload`. 13. The channel (`DeviceWorld.broadcast`):
/// unknown, deleted or another app's: 400 `ChannelNotRegistered`; a non-zero expiration on a policy-0
/// channel: 400 `BadExpirationDate`.
///
/// Channel management (the management port): 1. Path `/1/apps/<bundle id>/channels` (POST, GET, DELETE)
/// or `/1/apps/<bundle id>/all-channels` (GET); any other path: 404 `BadPath`; another method: 405
/// `MethodNotAllowed`. Then steps 3–6 and 9 above. Create: body empty: 400 `PayloadEmpty`; not a JSON
/// object: 400 `BadRequestPayload`; an unknown attribute: 400 `BadRequestParams`;
/// `message-storage-policy` missing or not 0 or 1: 400 `MissingChannelQueueSize`; `push-type` missing:
/// 400 `MissingPushType`, not `LiveActivity`: 400 `InvalidPushType`; past the channel limit: 400
/// `CannotCreateChannelConfig`. Read and delete: `apns-channel-id` as in step 7, then unknown: 400
/// `ChannelNotRegistered`.
struct BroadcastRequestChecks {
    let configuration: EndpointConfiguration
    let keys: TrustedKeys

    static let broadcastPrefix = "/4/broadcasts/apps/"

    /// True for a path the broadcast route owns.
    static func isBroadcastPath(_ path: String?) -> Bool {
        guard let path else { return false }
        return path.hasPrefix("/4/broadcasts")
    }

    /// Steps 1–12 of a broadcast.
    func checkBroadcast(
        _ fields: RequestHeaderFields, body: Data, requestID: String, environment: APNsEnvironment, receivedAt: Date,
        headers: [HeaderField], auth: inout ConnectionAuthentication
    ) throws(Rejection) -> (push: ReceivedBroadcast, verified: ConnectionAuthentication.Verified) {
        guard fields.method == "POST" else { throw Rejection(.methodNotAllowed) }
        let bundleID = try Self.bundleID(afterPrefix: Self.broadcastPrefix, in: fields.path, suffix: "")
        if fields.duplicate != nil { throw Rejection(.duplicateHeaders) }
        let verified = try common(fields, bundleID: bundleID, environment: environment, receivedAt: receivedAt, auth: &auth)
        let channelID = try channelID(fields.channelID)
        guard let pushType = fields.pushType, !pushType.isEmpty else { throw Rejection(.missingPushType) }
        guard matchesLiveActivity(pushType) else { throw Rejection(.invalidPushType) }
        try checkRequestID(fields.requestID)
        guard let text = fields.expiration, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let expiration = Int64(text)
        else { throw Rejection(.badExpirationDate) }
        guard let text = fields.priority, let number = Int(text), let priority = APNsPriority(rawValue: number) else {
            throw Rejection(.badPriority)
        }
        if body.isEmpty { throw Rejection(.payloadEmpty) }
        if body.count > APNsBroadcastRequest.maximumPayloadSize { throw Rejection(.payloadTooLarge) }
        guard (try? JSONValue.parse(body)) != nil else { throw Rejection(.badRequestPayload) }
        let push = ReceivedBroadcast(
            channelID: channelID, bundleID: bundleID, environment: environment, priority: priority,
            expiration: expiration, requestID: requestID, headers: headers, payload: body, receivedAt: receivedAt
        )
        return (push, verified)
    }

    /// A channel management request that passed its request checks.
    enum ManagementOperation: Sendable {
        case create(APNsMessageStoragePolicy)
        case read(String)
        case delete(String)
        case list
    }

    /// The checks of a management request before the channel lookup.
    func checkManagement(
        _ fields: RequestHeaderFields, body: Data, environment: APNsEnvironment, receivedAt: Date,
        auth: inout ConnectionAuthentication
    ) throws(Rejection) -> (bundleID: String, operation: ManagementOperation, verified: ConnectionAuthentication.Verified) {
        let path = fields.path ?? ""
        let isList = path.hasSuffix("/all-channels")
        let bundleID = try Self.bundleID(afterPrefix: "/1/apps/", in: fields.path, suffix: isList ? "/all-channels" : "/channels")
        let method = fields.method ?? ""
        if isList {
            guard method == "GET" else { throw Rejection(.methodNotAllowed) }
        } else {
            guard ["POST", "GET", "DELETE"].contains(method) else { throw Rejection(.methodNotAllowed) }
        }
        if fields.duplicate != nil { throw Rejection(.duplicateHeaders) }
        let verified = try common(fields, bundleID: bundleID, environment: environment, receivedAt: receivedAt, auth: &auth)
        try checkRequestID(fields.requestID)
        let operation: ManagementOperation
        switch (isList, method) {
        case (true, _): operation = .list
        case (false, "POST"): operation = .create(try storagePolicy(body))
        case (false, "GET"): operation = .read(try channelID(fields.channelID))
        default: operation = .delete(try channelID(fields.channelID))
        }
        return (bundleID, operation, verified)
    }

    // MARK: - Shared steps

    /// Steps 4–6: authentication, the bundle id covered by the credential, the capability.
    private func common(
        _ fields: RequestHeaderFields, bundleID: String, environment: APNsEnvironment, receivedAt: Date,
        auth: inout ConnectionAuthentication
    ) throws(Rejection) -> ConnectionAuthentication.Verified {
        let verified = try auth.authenticate(
            authorization: fields.authorization, environment: environment, now: receivedAt, keys: keys,
            configuration: configuration
        )
        let liveActivityTopic = APNsPushType.liveactivity.topic(forBundleID: bundleID)
        switch verified {
        case .token(let token):
            if let topics = token.key.topics, !topics.contains(bundleID), !topics.contains(liveActivityTopic) {
                throw Rejection(.topicMismatch)
            }
            if let owned = configuration.teamBundleIDs[token.key.teamID], !owned.contains(bundleID) {
                throw Rejection(.topicMismatch)
            }
        case .certificate(let certificate):
            guard certificate.bundleID == bundleID || certificate.topics.contains(bundleID) else {
                throw Rejection(.topicMismatch)
            }
        }
        if configuration.broadcast.disabledBundleIDs.contains(bundleID) { throw Rejection(.featureNotEnabled) }
        return verified
    }

    /// The bundle id between `prefix` and `suffix`: 404 `BadPath` when absent or followed by more path,
    /// 400 `TopicDisallowed` with a push-type topic suffix.
    static func bundleID(afterPrefix prefix: String, in path: String?, suffix: String) throws(Rejection) -> String {
        guard let path, path.hasPrefix(prefix), path.hasSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count else {
            throw Rejection(.badPath)
        }
        let bundleID = String(path.dropFirst(prefix.count).dropLast(suffix.count))
        guard !bundleID.isEmpty, !bundleID.contains("/"), !bundleID.contains("?") else { throw Rejection(.badPath) }
        if bundleID.hasSuffix(APNsPushType.liveactivity.topicSuffix ?? "") { throw Rejection(.topicDisallowed) }
        guard bundleID.utf8.allSatisfy(PushRequestChecks.isTopicByte) else { throw Rejection(.badPath) }
        return bundleID
    }

    private func channelID(_ value: String?) throws(Rejection) -> String {
        guard let value, !value.isEmpty else { throw Rejection(.missingChannelID) }
        guard value.utf8.count <= configuration.broadcast.maximumChannelIDLength, Data(base64Encoded: value) != nil else {
            throw Rejection(.badChannelID)
        }
        return value
    }

    private func checkRequestID(_ value: String?) throws(Rejection) {
        guard let value else { return }
        guard APNsID.parse(value, allowUppercase: configuration.acceptUppercaseAPNsID) != nil else {
            throw Rejection(.badMessageID)
        }
    }

    private func matchesLiveActivity(_ value: String) -> Bool {
        if configuration.broadcast.pushTypeCaseInsensitive { return value.lowercased() == "liveactivity" }
        return value == "liveactivity" || value == "LiveActivity"
    }

    /// The create body: exactly `message-storage-policy` (0 or 1) and `push-type` (`LiveActivity`).
    private func storagePolicy(_ body: Data) throws(Rejection) -> APNsMessageStoragePolicy {
        if body.isEmpty { throw Rejection(.payloadEmpty) }
        guard let parsed = try? JSONValue.parse(body), let object = parsed.objectValue else {
            throw Rejection(.badRequestPayload)
        }
        let known: Set<String> = ["message-storage-policy", "push-type"]
        if object.keys.contains(where: { !known.contains($0) }) { throw Rejection(.badRequestParams) }
        let policy: APNsMessageStoragePolicy
        switch object["message-storage-policy"]?.numberValue {
        case 0: policy = .noStorage
        case 1: policy = .mostRecentMessage
        default: throw Rejection(.missingChannelQueueSize)
        }
        guard let pushType = object["push-type"]?.stringValue, !pushType.isEmpty else { throw Rejection(.missingPushType) }
        guard matchesLiveActivity(pushType) else { throw Rejection(.invalidPushType) }
        return policy
    }
}
