import Foundation
import LiveActivity

// The contract's request types as the domain's values, once the contract has accepted the body (a free-form
// object is already a `JSONValue`): a date in any of its accepted forms as a `Date`, an alert as a `LiveActivityAlert`.

extension JSONValue {
    /// The contract's alert as its JSON (a title, a body, a sound; absent members left out), as a Live Activity
    /// resource and a renewal keep it (``LiveActivityAlert/init(stored:)`` reads it back).
    init(_ alert: Schemas.Alert) {
        var fields: [String: JSONValue] = [:]
        if let title = alert.value1?.title { fields["title"] = JSONValue(title) }
        if let body = alert.value2?.body { fields["body"] = JSONValue(body) }
        if let sound = alert.value3?.sound { fields["sound"] = .string(sound) }
        self = .object(fields)
    }

    init(_ text: Schemas.AlertText) {
        switch text {
        case .PlainText(let text): self = .string(text)
        case .LocalizedText(let localized):
            var fields: [String: JSONValue] = ["locKey": .string(localized.locKey)]
            if let arguments = localized.locArgs { fields["locArgs"] = .array(arguments.map(JSONValue.string)) }
            self = .object(fields)
        }
    }
}

// A date of a request in one of the forms the contract accepts: Unix seconds (a number or digits), ISO 8601,
// or relative to `now`. Nil only for a form the contract refuses.

extension Schemas.Date {
    func moment(now: Foundation.Date) -> Foundation.Date? {
        switch self {
        case .case1(let seconds): Foundation.Date(timeIntervalSince1970: seconds)
        case .case2(let date): date
        case .case3(let text), .case4(let text): try? DateInput.parse(text, now: now)
        }
    }
}

extension Schemas.DismissalDate {
    func moment(now: Foundation.Date) -> Foundation.Date? {
        switch self {
        case .case1(let seconds): Foundation.Date(timeIntervalSince1970: seconds)
        case .case2(let date): date
        case .case3(let text), .case4(let text): try? DateInput.parse(text, now: now)
        }
    }
}

extension Schemas.Expiration {
    func moment(now: Foundation.Date) -> Foundation.Date? {
        switch self {
        case .case1(let seconds): Foundation.Date(timeIntervalSince1970: seconds)
        case .case2(let text): try? DateInput.parse(text, now: now)
        }
    }
}

extension LiveActivityAlert {
    /// The contract's alert (a title, a body, a sound: at least one of them).
    init(_ alert: Schemas.Alert) {
        self.init(
            title: alert.value1.map { AlertText($0.title) }, body: alert.value2.map { AlertText($0.body) },
            sound: alert.value3.map { Sound($0.sound) })
    }

    /// An alert stored as the contract's `Alert` (a Live Activity resource's, a renewal's), which the contract
    /// accepted when it came; one that no longer reads as one is empty.
    init(stored: JSONValue) {
        if let alert = try? JSONValueDecoder.decode(Schemas.Alert.self, from: stored) {
            self.init(alert)
        } else {
            self.init()
        }
    }
}

extension AlertText {
    /// A plain string, or `{"locKey": "...", "locArgs": ["..."]}` for a localized text.
    init(_ text: Schemas.AlertText) {
        switch text {
        case .PlainText(let text): self = .plain(text)
        case .LocalizedText(let localized): self = .localized(key: localized.locKey, arguments: localized.locArgs ?? [])
        }
    }
}
