import LiveActivity

/// The dynamic `ContentState` of an adventure Live Activity, as the app's Codable struct decodes it.
package struct AdventureContentState: Sendable, Hashable, Codable {
    /// The party's health, 0 (everyone down) to 1 (everyone at full health).
    package var currentHealthLevel: Double
    /// What just happened, shown under the health bar.
    package var eventDescription: String

    /// The JSON object sent as `content-state`.
    package var jsonValue: JSONValue {
        .object(["currentHealthLevel": .number(currentHealthLevel), "eventDescription": .string(eventDescription)])
    }

    /// The schema the app declares for its `ContentState`: both fields required.
    package static let schema = ContentStateSchema(fields: [
        "currentHealthLevel": FieldType(.number),
        "eventDescription": FieldType(.string),
    ])
}

extension AdventureContentState {
    /// Reads a content state from JSON; nil when a field is missing or has the wrong type.
    package init?(json: JSONValue) {
        guard let level = json["currentHealthLevel"]?.numberValue, let text = json["eventDescription"]?.stringValue else {
            return nil
        }
        self.init(currentHealthLevel: level, eventDescription: text)
    }
}
