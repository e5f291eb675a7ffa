import LiveActivity

/// An Emoji Rangers hero: the static `ActivityAttributes` of a player's adventure Live Activity.
public struct Hero: Sendable, Hashable, Codable {
    /// A stable, URL-safe identifier (`power-panda`).
    public var id: String
    /// The hero's name, used in alerts (`Power Panda`).
    public var name: String
    /// The hero's emoji (`🐼`).
    public var emoji: String

    public init(id: String, name: String, emoji: String) {
        self.id = id
        self.name = name
        self.emoji = emoji
    }

    /// The attributes the app starts the activity with: `{"name": …, "emoji": …}`.
    public var attributes: JSONValue {
        .object(["name": .string(name), "emoji": .string(emoji)])
    }

    /// `🐼 Power Panda`.
    public var label: String { "\(emoji) \(name)" }
}
