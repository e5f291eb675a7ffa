import Foundation

/// The `aps` dictionary of a Live Activity push, typed. Build one with `.start`, `.update` or `.end`,
/// check it with `validate()`, and send `encoded()` (`{"aps":{…}}`).
///
/// Dates of the `aps` keys (`timestamp`, `stale-date`, `dismissal-date`) are sent as whole Unix seconds.
/// Dates inside `content-state` and `attributes` follow Foundation's default JSONEncoder (seconds since
/// 2001-01-01) because the device decodes them with a default JSONDecoder.
public struct LiveActivityPayload: Sendable, Hashable {
    public var event: LiveActivityEvent
    /// When the data was produced; the device keeps the newest. Sent as whole Unix seconds.
    public var timestamp: Date
    /// Must decode into the app's `ContentState`; a JSON object. Required for `start` and `update`;
    /// optional on `end` (without it the ended activity keeps showing its last content state).
    public var contentState: JSONValue?
    /// After this the activity shows as stale.
    public var staleDate: Date?
    /// `end` only: when the ended activity leaves the Lock Screen.
    public var dismissalDate: Date?
    /// Orders the app's activities; any finite Double.
    public var relevanceScore: Double?
    /// Required for `start`; optional on `update` and `end`.
    public var alert: LiveActivityAlert?
    /// `start` only: the name of the app's `ActivityAttributes` type.
    public var attributesType: String?
    /// `start` only: the static attributes, a JSON object.
    public var attributes: JSONValue?
    /// `start` only (iOS 18+): ask for an update token for the new activity (`"input-push-token": 1`).
    public var inputPushToken: Bool
    /// `start` only (iOS 18+): the base64 broadcast channel id the new activity subscribes to.
    public var inputPushChannel: String?

    /// Makes a payload from its parts without checking them; `validate()` checks the event's rules.
    public init(
        event: LiveActivityEvent,
        timestamp: Date = Date(),
        contentState: JSONValue?,
        staleDate: Date? = nil,
        dismissalDate: Date? = nil,
        relevanceScore: Double? = nil,
        alert: LiveActivityAlert? = nil,
        attributesType: String? = nil,
        attributes: JSONValue? = nil,
        inputPushToken: Bool = false,
        inputPushChannel: String? = nil
    ) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.alert = alert
        self.attributesType = attributesType
        self.attributes = attributes
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
    }
}

// MARK: - Builders from raw JSON

extension LiveActivityPayload {
    /// A push-to-start payload (iOS 17.2+). The alert is required: a device drops a start without one.
    public static func start(
        attributesType: String,
        attributes: JSONValue,
        contentState: JSONValue,
        alert: LiveActivityAlert,
        timestamp: Date = Date(),
        staleDate: Date? = nil,
        relevanceScore: Double? = nil,
        inputPushToken: Bool = false,
        inputPushChannel: String? = nil
    ) -> LiveActivityPayload {
        LiveActivityPayload(
            event: .start, timestamp: timestamp, contentState: contentState, staleDate: staleDate,
            relevanceScore: relevanceScore, alert: alert, attributesType: attributesType,
            attributes: attributes, inputPushToken: inputPushToken, inputPushChannel: inputPushChannel
        )
    }

    /// An update of a running activity.
    public static func update(
        contentState: JSONValue,
        alert: LiveActivityAlert? = nil,
        timestamp: Date = Date(),
        staleDate: Date? = nil,
        relevanceScore: Double? = nil
    ) -> LiveActivityPayload {
        LiveActivityPayload(
            event: .update, timestamp: timestamp, contentState: contentState, staleDate: staleDate,
            relevanceScore: relevanceScore, alert: alert
        )
    }

    /// Ends an activity with its final content state; `dismissalDate` says when it leaves the Lock Screen
    /// (nil: the system default of up to 4 hours; a past date: at once).
    public static func end(
        contentState: JSONValue,
        dismissalDate: Date? = nil,
        alert: LiveActivityAlert? = nil,
        timestamp: Date = Date(),
        staleDate: Date? = nil,
        relevanceScore: Double? = nil
    ) -> LiveActivityPayload {
        var payload = end(dismissalDate: dismissalDate, alert: alert, timestamp: timestamp, staleDate: staleDate, relevanceScore: relevanceScore)
        payload.contentState = contentState
        return payload
    }
}

extension LiveActivityPayload {
    /// Ends an activity without a final content state: it keeps showing its last one until dismissed
    /// (`dismissalDate`: nil for the system default of up to 4 hours, a past date for at once).
    public static func end(
        dismissalDate: Date? = nil,
        alert: LiveActivityAlert? = nil,
        timestamp: Date = Date(),
        staleDate: Date? = nil,
        relevanceScore: Double? = nil
    ) -> LiveActivityPayload {
        LiveActivityPayload(
            event: .end, timestamp: timestamp, contentState: nil, staleDate: staleDate,
            dismissalDate: dismissalDate, relevanceScore: relevanceScore, alert: alert
        )
    }
}

// MARK: - Builders from Encodable values

extension LiveActivityPayload {
    /// A push-to-start payload whose attributes and content state are the app's own Codable types,
    /// encoded exactly as Foundation's default JSONEncoder does (what the device's JSONDecoder reads).
    public static func start(
        attributesType: String,
        attributes: some Encodable,
        contentState: some Encodable,
        alert: LiveActivityAlert,
        timestamp: Date = Date(),
        staleDate: Date? = nil,
        relevanceScore: Double? = nil,
        inputPushToken: Bool = false,
        inputPushChannel: String? = nil
    ) throws(LiveActivityPayloadError) -> LiveActivityPayload {
        .start(
            attributesType: attributesType,
            attributes: try encode(attributes, as: .attributes),
            contentState: try encode(contentState, as: .contentState),
            alert: alert, timestamp: timestamp, staleDate: staleDate, relevanceScore: relevanceScore,
            inputPushToken: inputPushToken, inputPushChannel: inputPushChannel
        )
    }

    /// An update whose content state is the app's own Codable `ContentState`.
    public static func update(
        contentState: some Encodable,
        alert: LiveActivityAlert? = nil,
        timestamp: Date = Date(),
        staleDate: Date? = nil,
        relevanceScore: Double? = nil
    ) throws(LiveActivityPayloadError) -> LiveActivityPayload {
        .update(
            contentState: try encode(contentState, as: .contentState), alert: alert, timestamp: timestamp,
            staleDate: staleDate, relevanceScore: relevanceScore
        )
    }

    /// An end whose final content state is the app's own Codable `ContentState`.
    public static func end(
        contentState: some Encodable,
        dismissalDate: Date? = nil,
        alert: LiveActivityAlert? = nil,
        timestamp: Date = Date(),
        staleDate: Date? = nil,
        relevanceScore: Double? = nil
    ) throws(LiveActivityPayloadError) -> LiveActivityPayload {
        .end(
            contentState: try encode(contentState, as: .contentState), dismissalDate: dismissalDate,
            alert: alert, timestamp: timestamp, staleDate: staleDate, relevanceScore: relevanceScore
        )
    }

    private static func encode(_ value: some Encodable, as key: Key) throws(LiveActivityPayloadError) -> JSONValue {
        do {
            return try JSONValue.encoding(value)
        } catch {
            throw .notEncodable(key, detail: "\(error)")
        }
    }
}
