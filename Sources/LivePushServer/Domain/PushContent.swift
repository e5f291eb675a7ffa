import APNsCore
import Foundation
import LiveActivity
import PushStore

/// What a send request asks for, checked field by field (by the API) and free of any transport: the
/// content state and alert, dates, priority and importance, and for a start the attributes.
struct PushContent: Sendable {
    /// Required, except on an end (without it the activity keeps showing its last state).
    var contentState: JSONValue?
    var requestedPriority: APNsPriority
    var importance: PushImportance
    var alert: LiveActivityAlert?
    var staleDate: Date?
    var relevanceScore: Double?
    var dismissalDate: Date?
    var expiration: Date?
    var collapseID: String?
    /// Start only.
    var attributesType: String?
    var attributes: JSONValue?
    /// Start only (iOS 18+): ask the device for the new activity's update token.
    var inputPushToken = false
    /// Start only (iOS 18+): our channel id as the request gave it; `PushService` resolves it.
    var inputPushChannel: String?
    /// APNs' id of that channel, once resolved: the payload's `input-push-channel`.
    var inputPushChannelAPNsID: String?

    /// The payload for one target, with the timestamp fixed now.
    func payload(kind: LiveActivityEvent, timestamp: Date, dismissalDate: Date?) -> LiveActivityPayload {
        switch kind {
        case .start:
            return .start(
                attributesType: attributesType ?? "", attributes: attributes ?? .object([:]), contentState: contentState ?? .object([:]),
                alert: alert ?? LiveActivityAlert(), timestamp: timestamp, staleDate: staleDate, relevanceScore: relevanceScore,
                inputPushToken: inputPushToken, inputPushChannel: inputPushChannelAPNsID
            )
        case .update:
            return .update(
                contentState: contentState ?? .object([:]), alert: alert, timestamp: timestamp, staleDate: staleDate, relevanceScore: relevanceScore)
        case .end:
            return LiveActivityPayload(
                event: .end, timestamp: timestamp, contentState: contentState, staleDate: staleDate,
                dismissalDate: dismissalDate, relevanceScore: relevanceScore, alert: alert
            )
        }
    }

    /// The payload for one target with the timestamp fixed now (the dismissal date goes on an end only),
    /// checked as APNs and the device will: the one way every send path makes a payload from a request.
    func validatedPayload(kind: LiveActivityEvent, timestamp: Date) throws(DomainError) -> Data {
        try Self.validate(payload(kind: kind, timestamp: timestamp, dismissalDate: kind == .end ? dismissalDate : nil))
    }

    /// Checks the payload as APNs and the device will; the error names the request field at fault.
    static func validate(_ payload: LiveActivityPayload) throws(DomainError) -> Data {
        do {
            return try payload.validatedBody()
        } catch {
            throw domainError(for: error)
        }
    }

    static func domainError(for error: LiveActivityPayloadError) -> DomainError {
        let field: String
        let rule: String
        switch error {
        case .payloadTooLarge: (field, rule) = ("contentState", "maxPayloadSize")
        case .missingContentState, .contentStateNotObject: (field, rule) = ("contentState", "object")
        case .missingStartField(let key): (field, rule) = (camel(key.rawValue), "required")
        case .dismissalDateNotOnEnd: (field, rule) = ("dismissalDate", "endOnly")
        case .attributesNotOnStart(let key, _): (field, rule) = (camel(key.rawValue), "startOnly")
        case .inputPushNotOnStart(let key, _): (field, rule) = (camel(key.rawValue), "startOnly")
        case .attributesNotObject: (field, rule) = ("attributes", "object")
        case .emptyAttributesType: (field, rule) = ("attributesType", "nonEmpty")
        case .relevanceScoreNotFinite: (field, rule) = ("relevanceScore", "finite")
        case .emptyLocKey(let path): (field, rule) = (path.replacingOccurrences(of: "loc-key", with: "locKey"), "nonEmpty")
        case .emptySoundName: (field, rule) = ("alert.sound", "nonEmpty")
        case .invalidInputPushChannel: (field, rule) = ("inputPushChannel", "base64")
        case .notEncodable(let key, _): (field, rule) = (camel(key.rawValue), "json")
        }
        return .invalid(field, rule, error.description)
    }

    /// `content-state` → `contentState`.
    static func camel(_ key: String) -> String {
        let parts = key.split(separator: "-")
        guard let first = parts.first else { return key }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
