import LiveActivity

/// An Emoji Rangers hero: the static `ActivityAttributes` of a player's adventure Live Activity.
package struct Hero: Sendable, Hashable, Codable {
    /// A stable, URL-safe identifier (`power-panda`).
    package var id: String
    /// The hero's name, used in alerts (`Power Panda`).
    package var name: String
    /// The hero's emoji (`🐼`).
    package var emoji: String

    /// The attributes the app starts the activity with: `{"name": …, "emoji": …}`.
    package var attributes: JSONValue {
        .object(["name": .string(name), "emoji": .string(emoji)])
    }

    /// `🐼 Power Panda`.
    package var label: String { "\(emoji) \(name)" }
}
