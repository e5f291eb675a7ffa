/// Why a Live Activity payload would be rejected by APNs or dropped by the device.
public enum LiveActivityPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoded body is over the limit (4096 bytes for a Live Activity push to a token).
    case payloadTooLarge(size: Int, limit: Int, largest: [PayloadSizeContributor])
    /// `start` and `update` need a content state (`end` may omit it: the activity keeps its last one).
    case missingContentState(event: LiveActivityEvent)
    /// A start needs `attributes-type`, `attributes` and `alert`.
    case missingStartField(LiveActivityPayload.Key)
    /// `dismissal-date` is only read on `end`.
    case dismissalDateNotOnEnd(event: LiveActivityEvent)
    /// `attributes` and `attributes-type` are only read on `start`.
    case attributesNotOnStart(LiveActivityPayload.Key, event: LiveActivityEvent)
    /// `input-push-token` and `input-push-channel` are only read on `start`.
    case inputPushNotOnStart(LiveActivityPayload.Key, event: LiveActivityEvent)
    /// `content-state` must be a JSON object (the app's `ContentState` struct).
    case contentStateNotObject(actualType: String)
    /// `attributes` must be a JSON object (the app's `ActivityAttributes` struct).
    case attributesNotObject(actualType: String)
    /// `attributes-type` must name the app's `ActivityAttributes` type.
    case emptyAttributesType
    /// `relevance-score` must be a finite number.
    case relevanceScoreNotFinite(Double)
    /// A localized alert text has an empty `loc-key`; `field` is `alert.title` or `alert.body`.
    case emptyLocKey(field: String)
    /// `alert.sound` names an empty file.
    case emptySoundName
    /// `input-push-channel` must be a base64 channel id.
    case invalidInputPushChannel(String)
    /// A Codable content state or attributes value could not be encoded (e.g. a NaN Double).
    case notEncodable(LiveActivityPayload.Key, detail: String)

    public var description: String {
        switch self {
        case .payloadTooLarge(let size, let limit, let largest):
            var text =
                "payload is \(size) bytes; APNs accepts at most \(limit) bytes for this push "
                + "(413 PayloadTooLarge). Trim at least \(size - limit) bytes"
            if !largest.isEmpty {
                text += "; the largest parts are " + largest.map(\.description).joined(separator: ", ")
            }
            return text
        case .missingContentState(let event):
            return "content-state is missing on \(Self.push(event)); 'start' and 'update' need the activity's "
                + "content state as a JSON object (only 'end' may omit it, keeping the last state)"
        case .missingStartField(let key):
            let what: String
            switch key {
            case .attributesType: what = "the name of the app's ActivityAttributes type"
            case .attributes: what = "the static attributes as a JSON object"
            case .alert: what = "an alert (title/body); the device drops a start without one"
            default: what = "a value"
            }
            return "\(key) is missing on a 'start' push; push-to-start requires \(what)"
        case .dismissalDateNotOnEnd(let event):
            return "dismissal-date is set on \(Self.push(event)); it is only accepted on 'end'"
        case .attributesNotOnStart(let key, let event):
            return "\(key) is set on \(Self.push(event)); it is only accepted on 'start' (attributes cannot change "
                + "after the activity started)"
        case .inputPushNotOnStart(let key, let event):
            return "\(key) is set on \(Self.push(event)); it is only accepted on 'start' (iOS 18+)"
        case .contentStateNotObject(let type):
            return "content-state is a JSON \(type); it must be a JSON object whose keys are the ContentState "
                + "property names"
        case .attributesNotObject(let type):
            return "attributes is a JSON \(type); it must be a JSON object whose keys are the ActivityAttributes "
                + "property names"
        case .emptyAttributesType:
            return "attributes-type is empty; it must be the name of the app's ActivityAttributes type"
        case .relevanceScoreNotFinite(let value):
            return "relevance-score is \(value); it must be a finite number (any Double, not only 0-1)"
        case .emptyLocKey(let field):
            return "\(field).loc-key is empty; a localized alert text needs the key of a Localizable.strings "
                + "entry (or use a plain string)"
        case .emptySoundName:
            return "alert.sound is empty; use \"default\" or the name of a sound file in the app bundle"
        case .invalidInputPushChannel(let channel):
            return "input-push-channel '\(channel)' is not a channel id; expected the base64 id APNs returned "
                + "when the channel was created"
        case .notEncodable(let key, let detail):
            return "\(key) could not be encoded as JSON: \(detail)"
        }
    }

    /// "a 'start' push", "an 'update' push", "an 'end' push".
    static func push(_ event: LiveActivityEvent) -> String {
        (event == .start ? "a" : "an") + " '\(event)' push"
    }
}
