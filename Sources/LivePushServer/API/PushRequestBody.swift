import APNsCore
import Foundation
import LiveActivity
import PushStore

/// The body of an update, end or start request, read into a `PushContent`: every problem names its
/// field and rule.
enum PushRequestBody {
    /// The latest `expiration` accepted, from now.
    static let maximumExpiration: TimeInterval = 30 * 86_400

    /// Parses the body for `kind`; every problem names its field and rule.
    static func parse(_ body: JSONBody, kind: LiveActivityEvent, now: Date) throws(APIError) -> PushContent {
        try body.allowOnly(SendBody.fields(for: kind))
        let contentState = try body.objectValue("contentState")
        if contentState == nil, kind != .end {
            throw .badRequest(
                "contentState", "required",
                "'contentState' is required: a JSON object that decodes into the app's ContentState (only an end may omit it)")
        }
        let (priority, importance) = try parsePriority(body)
        var alert = try body.object("alert").map { object throws(APIError) in try parseAlert(object) }
        if let sound = try body.string("sound") {
            if alert?.sound != nil {
                throw .badRequest("sound", "duplicate", "give the sound either as 'sound' or as 'alert.sound', not both")
            }
            alert = LiveActivityAlert(title: alert?.title, body: alert?.body, sound: LiveActivityAlert.Sound(sound))
        }
        if kind == .start, alert == nil {
            throw .badRequest("alert", "required", "'alert' is required to start an activity: the device drops a push-to-start without one")
        }
        // APNs keeps an undelivered push at most 30 days: retrying longer would send nothing useful.
        let expiration = try body.date("expiration", now: now, maximumAhead: Self.maximumExpiration)
        if let expiration, expiration <= now {
            throw .badRequest("expiration", "future", "'expiration' is in the past; give a future date (ISO 8601 or Unix seconds)")
        }
        let collapseID = try body.string("collapseId", maxLength: 64)
        if let collapseID, collapseID.utf8.count > APNsRequestHeaders.maximumCollapseIDBytes {
            throw .badRequest("collapseId", "maxBytes", "'collapseId' is \(collapseID.utf8.count) bytes; APNs accepts at most 64")
        }
        if let collapseID { _ = try RouteInputs.headerValue("collapseId", collapseID, header: "apns-collapse-id") }
        return PushContent(
            contentState: contentState, requestedPriority: priority, importance: importance, alert: alert,
            staleDate: try body.date("staleDate", now: now), relevanceScore: try body.number("relevanceScore"),
            dismissalDate: kind == .end ? try body.date("dismissalDate", now: now, earliest: JSONBody.earliestDismissal) : nil,
            expiration: expiration, collapseID: collapseID,
            attributesType: kind == .start ? try attributesType(body) : nil,
            attributes: kind == .start ? try requiredObject(body, "attributes") : nil,
            inputPushToken: kind == .start ? try body.bool("inputPushToken") ?? false : false,
            inputPushChannel: kind == .start ? try body.string("inputPushChannel", maxLength: 128) : nil
        )
    }

    /// A start's `attributesType`: 1 to 128 characters, none a control character (the document's
    /// `AttributesType`, the rule the store holds a push-to-start token's type to).
    private static func attributesType(_ body: JSONBody) throws(APIError) -> String {
        try RouteInputs.printable("attributesType", try body.requiredString("attributesType", maxLength: 128), kind: "a type name is")
    }

    private static func requiredObject(_ body: JSONBody, _ key: String) throws(APIError) -> JSONValue {
        guard let value = try body.objectValue(key) else {
            throw .badRequest(key, "required", "'\(key)' is required: a JSON object with the static ActivityAttributes")
        }
        return value
    }

    /// `priority` 5|10 or `importance` routine|timeSensitive; neither: routine (5).
    static func parsePriority(_ body: JSONBody) throws(APIError) -> (APNsPriority, PushImportance) {
        var priority: APNsPriority?
        if let number = try body.number("priority") {
            switch number {
            case 5: priority = .conservesPower
            case 10: priority = .immediate
            default:
                throw .badRequest(
                    "priority", "oneOf", "'priority' is \(JSONValue.number(number)); Live Activity pushes take 5 (power-aware) or 10 (now)")
            }
        }
        var importance: PushImportance?
        if let text = try body.string("importance") {
            switch text {
            case "routine": importance = .routine
            case "timeSensitive", "time-sensitive": importance = .timeSensitive
            default:
                throw .badRequest("importance", "oneOf", "'importance' is '\(text)'; accepted: routine, timeSensitive")
            }
        }
        switch (priority, importance) {
        case (nil, nil): return (.conservesPower, .routine)
        case (let priority?, nil): return (priority, priority == .immediate ? .timeSensitive : .routine)
        case (nil, let importance?): return (importance == .timeSensitive ? .immediate : .conservesPower, importance)
        case (let priority?, let importance?):
            let expected: APNsPriority = importance == .timeSensitive ? .immediate : .conservesPower
            guard priority == expected else {
                throw .badRequest(
                    "importance", "consistent",
                    "'priority' \(priority.rawValue) contradicts 'importance' \(importance.rawValue); give one of them (routine is 5, timeSensitive is 10)"
                )
            }
            return (priority, importance)
        }
    }

    static func parseAlert(_ object: JSONBody) throws(APIError) -> LiveActivityAlert {
        try object.allowOnly(SendBody.Alert.fields)
        let alert = LiveActivityAlert(
            title: try parseText(object, "title"), body: try parseText(object, "body"),
            sound: try object.string("sound").map { LiveActivityAlert.Sound($0) }
        )
        if alert.title == nil, alert.body == nil, alert.sound == nil {
            throw .badRequest(object.prefix.isEmpty ? "alert" : String(object.prefix.dropLast()), "nonEmpty", "'alert' has no title, body or sound")
        }
        return alert
    }

    /// A plain string, or `{"locKey": "...", "locArgs": ["..."]}` for a localized text.
    static func parseText(_ object: JSONBody, _ key: String) throws(APIError) -> AlertText? {
        guard let value = object.fields[key], value != .null else { return nil }
        if value.stringValue != nil { return .plain(try object.requiredString(key, maxLength: 4096)) }
        guard let localized = try object.object(key) else { return nil }
        try localized.allowOnly(SendBody.AlertText.localizedFields)
        let locKey = try localized.requiredString("locKey", maxLength: 1024)
        let arguments = try localized.stringArray("locArgs", maxCount: 32, maxLength: 1024) ?? []
        return .localized(key: locKey, arguments: arguments)
    }
}
