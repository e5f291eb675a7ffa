import Foundation

extension LiveActivityPayload {
    /// Reads a request body back into a payload, leniently: unknown keys are ignored, event rules are not
    /// checked (call `validate()` for those), `input-push-token` may be `1`/`0` or a boolean, and an
    /// `alert` given as a plain string is read as its body. Wrong JSON types are errors.
    public static func decode(from data: Data) throws(PayloadDecodingError) -> LiveActivityPayload {
        let body: JSONValue
        do {
            body = try JSONValue.parse(data)
        } catch {
            throw .invalidJSON(error.description)
        }
        guard let top = body.objectValue else { throw .bodyNotObject(actualType: body.typeName) }
        guard let apsValue = top["aps"] else { throw .missingAPS }
        guard let aps = apsValue.objectValue else {
            throw .wrongType(path: "aps", expected: "object", actual: apsValue.typeName)
        }
        let reader = APSReader(aps: aps)

        guard let eventName = try reader.string(.event) else { throw .missingField(path: "aps.event") }
        guard let event = LiveActivityEvent(rawValue: eventName) else { throw .unknownEvent(eventName) }
        guard let timestamp = try reader.date(.timestamp) else { throw .missingField(path: "aps.timestamp") }

        return LiveActivityPayload(
            event: event,
            timestamp: timestamp,
            contentState: reader.raw(.contentState),
            staleDate: try reader.date(.staleDate),
            dismissalDate: try reader.date(.dismissalDate),
            relevanceScore: try reader.number(.relevanceScore),
            alert: try reader.alert(),
            attributesType: try reader.string(.attributesType),
            attributes: reader.raw(.attributes),
            inputPushToken: try reader.flag(.inputPushToken),
            inputPushChannel: try reader.string(.inputPushChannel)
        )
    }
}

/// Typed access to the keys of a received `aps` dictionary; a present `null` counts as absent.
private struct APSReader {
    let aps: [String: JSONValue]

    func raw(_ key: LiveActivityPayload.Key) -> JSONValue? {
        guard let value = aps[key.rawValue], value != .null else { return nil }
        return value
    }

    func string(_ key: LiveActivityPayload.Key) throws(PayloadDecodingError) -> String? {
        guard let value = raw(key) else { return nil }
        guard let string = value.stringValue else { throw Self.wrongType(key, "string", value) }
        return string
    }

    func number(_ key: LiveActivityPayload.Key) throws(PayloadDecodingError) -> Double? {
        guard let value = raw(key) else { return nil }
        guard let number = value.numberValue else { throw Self.wrongType(key, "number", value) }
        return number
    }

    func date(_ key: LiveActivityPayload.Key) throws(PayloadDecodingError) -> Date? {
        guard let value = raw(key) else { return nil }
        guard let seconds = value.numberValue else { throw Self.wrongType(key, "number (Unix seconds)", value) }
        return Date(timeIntervalSince1970: seconds)
    }

    func flag(_ key: LiveActivityPayload.Key) throws(PayloadDecodingError) -> Bool {
        guard let value = raw(key) else { return false }
        switch value {
        case .bool(let flag): return flag
        case .number(let number) where number == 0 || number == 1: return number == 1
        default: throw Self.wrongType(key, "1", value)
        }
    }

    func alert() throws(PayloadDecodingError) -> LiveActivityAlert? {
        guard let value = raw(.alert) else { return nil }
        if let text = value.stringValue { return LiveActivityAlert(body: .plain(text)) }
        guard let object = value.objectValue else { throw Self.wrongType(.alert, "object", value) }
        var alert = LiveActivityAlert()
        alert.title = try Self.alertText(object["title"], path: "aps.alert.title")
        alert.body = try Self.alertText(object["body"], path: "aps.alert.body")
        if let sound = object["sound"], sound != .null {
            guard let name = sound.stringValue else {
                throw .wrongType(path: "aps.alert.sound", expected: "string", actual: sound.typeName)
            }
            alert.sound = LiveActivityAlert.Sound(name)
        }
        return alert
    }

    private static func alertText(_ value: JSONValue?, path: String) throws(PayloadDecodingError) -> AlertText? {
        guard let value, value != .null else { return nil }
        if let text = value.stringValue { return .plain(text) }
        guard let object = value.objectValue else {
            throw .wrongType(path: path, expected: "string or {\"loc-key\",\"loc-args\"} object", actual: value.typeName)
        }
        guard let keyValue = object["loc-key"] else { throw .missingField(path: path + ".loc-key") }
        guard let key = keyValue.stringValue else {
            throw .wrongType(path: path + ".loc-key", expected: "string", actual: keyValue.typeName)
        }
        var arguments: [String] = []
        if let argsValue = object["loc-args"], argsValue != .null {
            guard let items = argsValue.arrayValue else {
                throw .wrongType(path: path + ".loc-args", expected: "array of strings", actual: argsValue.typeName)
            }
            for (index, item) in items.enumerated() {
                guard let text = item.stringValue else {
                    throw .wrongType(path: "\(path).loc-args[\(index)]", expected: "string", actual: item.typeName)
                }
                arguments.append(text)
            }
        }
        return .localized(key: key, arguments: arguments)
    }

    private static func wrongType(
        _ key: LiveActivityPayload.Key, _ expected: String, _ value: JSONValue
    ) -> PayloadDecodingError {
        .wrongType(path: "aps." + key.rawValue, expected: expected, actual: value.typeName)
    }
}
