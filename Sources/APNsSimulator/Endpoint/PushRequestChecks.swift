import APNsCore
import Foundation

/// The checks the simulated APNs runs on a device push, in this order (the only place the order is
/// written down). Apple documents only that authentication comes before the token (docs/apns-protocol.md
/// §4.3 and §11.7); the rest is our reading, chosen so that cheap, stateless request checks come first.
///
/// 0. Injected faults (`FaultInjector`) apply before any check.
/// 1. Method: `:method` is `POST`, else 405 `MethodNotAllowed`.
/// 2. Path: `/3/device/<token>`. `/3/device/` (or `/3/device`) with no token: 400 `MissingDeviceToken`;
///    any other path, or a token followed by more path: 404 `BadPath`.
/// 3. Duplicate headers: any header name sent twice: 400 `DuplicateHeaders`.
/// 4. Authentication (`ConnectionAuthentication.authenticate`): no or empty `authorization`: 403
///    `MissingProviderToken`; not `bearer <JWT>`, malformed JWT, unknown key, key of another team, bad
///    signature: 403 `InvalidProviderToken`; `iat` over an hour old: 403 `ExpiredProviderToken`; `iat`
///    too far ahead: configurable (403 `InvalidProviderToken`); key restricted to the other environment:
///    403 `BadEnvironmentKeyIdInToken` (spelling configurable); a team other than the one bound to the
///    connection: configurable (403 `InvalidProviderToken`); a key other than the bound key and its related
///    key: 403 `UnrelatedKeyIdInToken` (two team-scoped keys: configurable); a second token change within 20 minutes: 429 `TooManyProviderTokenUpdates`.
///    On a connection with a client certificate (verified against the simulator's CA in the TLS
///    handshake, which fails for any other certificate), the certificate instead, and `authorization` is
///    ignored (`ClientCertificate`): not an APNs provider certificate (no bundle id UID or push
///    environment): 403 `BadCertificate`; not valid for the request's environment: 403
///    `BadCertificateEnvironment`.
/// 5. Headers: `apns-push-type` unknown (or missing on a `.push-type.liveactivity` topic, configurable):
///    400 `InvalidPushType`; `apns-id` not a canonical UUID: 400 `BadMessageId`; `apns-expiration` not
///    whole Unix seconds: 400 `BadExpirationDate`; `apns-priority` not 10, 5 or 1 (or 1 on liveactivity,
///    10 on background, configurable): 400 `BadPriority`; `apns-collapse-id` over 64 bytes: 400 `BadCollapseId`.
/// 6. Topic: missing or empty: 400 `MissingTopic`; not a bundle id with the push type's suffix: 400
///    `BadTopic`; outside a topic-specific key's topics: configurable (400 `TopicDisallowed`); outside the
///    team's bundle ids: 400 `TopicDisallowed`. On a
///    certificate connection (`CertificateTopicRule`): a missing topic defaults to the certificate's
///    bundle id; a Live Activity push: configurable (400 `TopicDisallowed`), before the syntax checks; a
///    topic the certificate does not list: 400 `TopicDisallowed`.
/// 7. Token syntax: not whole bytes of hex: 400 `BadDeviceToken`.
/// 8. Payload: empty: 400 `PayloadEmpty`; over 4096 bytes (5120 for voip): 413 `PayloadTooLarge`.
/// 9. The devices' verdict (`DeviceWorld.deliver`): unknown token or other environment (400
///    `BadDeviceToken`), `DeviceTokenNotForTopic`, 410 `Unregistered`/`ExpiredToken`, 429 `TooManyRequests`.
///    Last, because it is a lookup on the delivery side that only a complete, well-formed push reaches
///    (the payload checks are request validation at the front door).
///
/// Steps 1–8 are `check`; step 9 is the endpoint's hop to the devices.
struct PushRequestChecks {
    let configuration: EndpointConfiguration
    let keys: TrustedKeys

    static let pathPrefix = "/3/device/"

    /// The token part of the path, for the push log and per-token faults: nil unless the path is
    /// `/3/device/<something>`.
    static func pathToken(_ path: String?) -> String? {
        guard let path, path.hasPrefix(pathPrefix) else { return nil }
        let token = path.dropFirst(pathPrefix.utf8.count)
        return token.isEmpty ? nil : String(token)
    }

    /// Runs steps 1–8. On success, returns the push for the devices and what authenticated it (to bind
    /// the connection once the push is accepted).
    func check(
        _ fields: RequestHeaderFields, body: Data, apnsID: String, environment: APNsEnvironment,
        receivedAt: Date, headers: [HeaderField], auth: inout ConnectionAuthentication
    ) throws(Rejection) -> (push: ReceivedPush, verified: ConnectionAuthentication.Verified) {
        // 1. Method
        guard fields.method == "POST" else { throw Rejection(.methodNotAllowed) }
        // 2. Path
        let rawToken = try Self.token(inPath: fields.path)
        // 3. Duplicate headers
        if fields.duplicate != nil { throw Rejection(.duplicateHeaders) }
        // 4. Authentication
        let verified = try auth.authenticate(
            authorization: fields.authorization, environment: environment, now: receivedAt,
            keys: keys, configuration: configuration
        )
        // 5. Headers
        let pushType = try self.pushType(fields)
        if let id = fields.apnsID, APNsID.parse(id, allowUppercase: configuration.acceptUppercaseAPNsID) == nil {
            throw Rejection(.badMessageID)
        }
        let expiration = try Self.expiration(fields.expiration)
        let priority = try self.priority(fields.priority, pushType: pushType)
        if let collapseID = fields.collapseID, collapseID.utf8.count > APNsRequestHeaders.maximumCollapseIDBytes {
            throw Rejection(.badCollapseID)
        }
        // 6. Topic
        let topic = try self.topic(fields.topic, pushType: pushType, credential: verified)
        // 7. Token syntax
        let token: DeviceToken
        do {
            token = try DeviceToken(hex: rawToken)
        } catch {
            throw Rejection(.badDeviceToken)
        }
        // 8. Payload
        if body.isEmpty { throw Rejection(.payloadEmpty) }
        if body.count > pushType.maximumPayloadSize { throw Rejection(.payloadTooLarge) }

        let (teamID, keyID) =
            switch verified {
            case .token(let token): (token.key.teamID, token.key.keyID)
            case .certificate: ("", "")
            }
        let push = ReceivedPush(
            token: token.hex, environment: environment, topic: topic, pushType: pushType, priority: priority,
            expiration: expiration, collapseID: fields.collapseID, apnsID: apnsID, headers: headers,
            payload: body, receivedAt: receivedAt, teamID: teamID, keyID: keyID
        )
        return (push, verified)
    }

    static func token(inPath path: String?) throws(Rejection) -> String {
        guard let path else { throw Rejection(.badPath) }
        if path == "/3/device" || path == pathPrefix { throw Rejection(.missingDeviceToken) }
        guard path.hasPrefix(pathPrefix) else { throw Rejection(.badPath) }
        let token = path.dropFirst(pathPrefix.utf8.count)
        guard !token.contains("/"), !token.contains("?") else { throw Rejection(.badPath) }
        return String(token)
    }

    /// The push type: the header's, or, when absent, the one the topic's suffix implies (else alert).
    private func pushType(_ fields: RequestHeaderFields) throws(Rejection) -> APNsPushType {
        if let value = fields.pushType {
            guard let type = APNsPushType(rawValue: value) else { throw Rejection(.invalidPushType) }
            return type
        }
        guard let topic = fields.topic else { return .alert }
        let implied = Self.suffixedTypes.first { topic.hasSuffix($0.topicSuffix ?? "") } ?? .alert
        if implied == .liveactivity, configuration.requirePushTypeForLiveActivity {
            throw Rejection(.invalidPushType)
        }
        return implied
    }

    /// Push types with a topic suffix, longest suffix first (so `.voip-ptt` wins over `.voip`-like overlaps).
    private static let suffixedTypes: [APNsPushType] = APNsPushType.allCases
        .filter { $0.topicSuffix != nil }
        .sorted { ($0.topicSuffix ?? "").count > ($1.topicSuffix ?? "").count }

    private static func expiration(_ value: String?) throws(Rejection) -> Date? {
        guard let value else { return nil }
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int64(value) else {
            throw Rejection(.badExpirationDate)
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private func priority(_ value: String?, pushType: APNsPushType) throws(Rejection) -> APNsPriority {
        guard let value else { return .immediate }
        guard let number = Int(value), let priority = APNsPriority(rawValue: number) else {
            throw Rejection(.badPriority)
        }
        if pushType == .liveactivity, priority == .low, configuration.rejectLowPriorityLiveActivity {
            throw Rejection(.badPriority)
        }
        if pushType == .background, priority == .immediate, configuration.rejectImmediateBackground {
            throw Rejection(.badPriority)
        }
        return priority
    }

    private func topic(
        _ value: String?, pushType: APNsPushType, credential: ConnectionAuthentication.Verified
    ) throws(Rejection) -> String {
        let topic: String
        if case .certificate(let certificate) = credential {
            topic = try CertificateTopicRule.topic(value, pushType: pushType, certificate: certificate, configuration: configuration)
        } else {
            guard let value, !value.isEmpty else { throw Rejection(.missingTopic) }
            topic = value
        }
        guard topic.utf8.allSatisfy(Self.isTopicByte) else { throw Rejection(.badTopic) }
        let bundleID: Substring
        if let suffix = pushType.topicSuffix {
            guard topic.hasSuffix(suffix), topic.utf8.count > suffix.utf8.count else { throw Rejection(.badTopic) }
            bundleID = topic.dropLast(suffix.count)
        } else if pushType == .mdm {
            bundleID = Substring(topic)
        } else {
            // alert and background go to the bare bundle id: another type's suffix is a mismatch.
            if Self.suffixedTypes.contains(where: { topic.hasSuffix($0.topicSuffix ?? "") }) {
                throw Rejection(.badTopic)
            }
            bundleID = Substring(topic)
        }
        switch credential {
        case .token(let token):
            let key = token.key
            if let topics = key.topics, !topics.contains(topic), !topics.contains(String(bundleID)) {
                throw Rejection(configuration.keyTopicReason)
            }
            if let owned = configuration.teamBundleIDs[key.teamID], !owned.contains(String(bundleID)) {
                throw Rejection(.topicDisallowed)
            }
        case .certificate(let certificate):
            try CertificateTopicRule.check(topic: topic, bundleID: bundleID, pushType: pushType, certificate: certificate)
        }
        return topic
    }

    /// A byte of a bundle id or topic: ASCII letters, digits, `.`, `-` and `_`.
    static func isTopicByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
