/// The heroes a party is drawn from, in party order: the first is the party's leader.
package enum HeroRoster {
    package static let heroes: [Hero] = [
        Hero(id: "power-panda", name: "Power Panda", emoji: "🐼"),
        Hero(id: "egghead", name: "Egghead", emoji: "🥚"),
        Hero(id: "cool-cat", name: "Cool Cat", emoji: "😼"),
        Hero(id: "spook", name: "Spook", emoji: "👻"),
    ]

    /// The party sizes an adventure can be played with.
    package static let partySizes = 3...4

    /// The first `size` heroes of the roster.
    package static func party(size: Int) throws(AdventureError) -> [Hero] {
        guard partySizes.contains(size) else {
            throw AdventureError.partySize(size)
        }
        return Array(heroes.prefix(size))
    }
}

/// A request the adventure engine cannot play.
package enum AdventureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The party size is outside ``HeroRoster/partySizes``.
    case partySize(Int)
    /// The same hero appears twice in a party.
    case duplicateHero(String)

    package var description: String {
        switch self {
        case .partySize(let size):
            return "party size \(size) is not supported; accepted: \(HeroRoster.partySizes.lowerBound) to \(HeroRoster.partySizes.upperBound) heroes"
        case .duplicateHero(let id):
            return "hero '\(id)' appears twice in the party; every player plays a different hero"
        }
    }
}
