import Foundation
import LiveActivity

/// The `aps` dictionary of a Live Activity push, read the way the device reads it (unknown keys ignored).
struct ActivityPushContent: Sendable {
    var event: String?
    var timestamp: Date?
    var contentState: JSONValue?
    var staleDate: Date?
    var dismissalDate: Date?
    var relevanceScore: Double?
    var alert: [String: JSONValue]?
    var sound: String?
    var attributesType: String?
    var attributes: JSONValue?
    var inputPushToken: Bool
    /// `input-push-channel` (start, iOS 18+): the channel the new activity subscribes to.
    var inputPushChannel: String?

    /// The body as JSON, for history records (a string when it is not JSON).
    static func jsonForRecord(_ payload: Data) -> JSONValue {
        (try? JSONValue.parse(payload)) ?? .string(String(decoding: payload, as: UTF8.self))
    }

    /// Reads the payload; the error text says what the device could not read.
    static func read(_ payload: Data) -> Result<ActivityPushContent, DeviceReadError> {
        let root: JSONValue
        do {
            root = try JSONValue.parse(payload)
        } catch {
            return .failure(DeviceReadError(message: "payload is \(error.description)"))
        }
        guard let aps = root["aps"]?.objectValue else {
            return .failure(DeviceReadError(message: "payload has no aps object"))
        }
        func date(_ key: String) -> Date? {
            aps[key]?.numberValue.map { Date(timeIntervalSince1970: $0) }
        }
        let input: Bool
        switch aps["input-push-token"] {
        case .number(let value): input = value == 1
        case .bool(let value): input = value
        default: input = false
        }
        return .success(
            ActivityPushContent(
                event: aps["event"]?.stringValue,
                timestamp: date("timestamp"),
                contentState: aps["content-state"],
                staleDate: date("stale-date"),
                dismissalDate: date("dismissal-date"),
                relevanceScore: aps["relevance-score"]?.numberValue,
                alert: aps["alert"]?.objectValue,
                sound: aps["alert"]?["sound"]?.stringValue ?? aps["sound"]?.stringValue,
                attributesType: aps["attributes-type"]?.stringValue,
                attributes: aps["attributes"],
                inputPushToken: input,
                inputPushChannel: aps["input-push-channel"]?.stringValue
            ))
    }

    /// The alert as shown, with localized text resolved from the app's table.
    func resolvedAlert(table: [String: String], receivedAt: Date, apnsID: String) -> AlertRecord? {
        guard let alert else { return nil }
        var title = AlertLocalization.resolve(alert["title"], table: table)
        if title == nil, let key = alert["title-loc-key"]?.stringValue {
            title = AlertLocalization.format(
                key: key, arguments: AlertLocalization.arguments(alert["title-loc-args"]), table: table)
        }
        var body = AlertLocalization.resolve(alert["body"], table: table)
        if body == nil, let key = alert["loc-key"]?.stringValue {
            body = AlertLocalization.format(
                key: key, arguments: AlertLocalization.arguments(alert["loc-args"]), table: table)
        }
        return AlertRecord(title: title, body: body, sound: sound, shownAt: receivedAt, apnsID: apnsID)
    }
}

/// Why the device could not read a payload.
struct DeviceReadError: Error, Sendable {
    var message: String
}

/// An alert the device showed for a Live Activity push.
public struct AlertRecord: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case title, body, sound, shownAt
        case apnsID = "apnsId"
    }

    public var title: String?
    public var body: String?
    public var sound: String?
    public var shownAt: Date
    public var apnsID: String
}
