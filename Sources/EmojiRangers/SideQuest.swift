import APNsCore
import LiveActivity

/// A calmer solo adventure every player also follows on their iPhone. The app starts it with a relevance
/// score between the party adventure's calm score and its boss-fight score, so the Lock Screen shows the side
/// quest first until the boss fight makes the party adventure the most important one, and again after it.
package struct SideQuest: Sendable, Hashable {
    /// The side quest's `ActivityAttributes` type (the app declares it next to the adventure's).
    package static let attributesType = "SideQuestAttributes"
    /// Between ``AdventureEngine/routineRelevance`` and ``AdventureEngine/bossFightRelevance``.
    package static let relevanceScore: Double = 75

    static let errands = ["gathering herbs", "training with the wooden sword", "mapping the old mine", "feeding the dragon hatchling"]

    package var hero: Hero
    /// What the side quest shows; it never changes during the demo.
    package var contentState: AdventureContentState

    /// The side quest of `hero`, its errand drawn from `seed`.
    package init(hero: Hero, seed: UInt64) {
        var random = SeededRandom(seed: seed ^ UInt64(truncatingIfNeeded: hero.id.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        let errand = Self.errands[Int.random(in: 0..<Self.errands.count, using: &random)]
        self.hero = hero
        contentState = AdventureContentState(currentHealthLevel: 1, eventDescription: "\(hero.label) is \(errand)")
    }

    /// `{"name": "Power Panda's side quest", "emoji": "🐼"}`.
    package var attributes: JSONValue {
        .object(["name": .string("\(hero.name)'s side quest"), "emoji": .string(hero.emoji)])
    }
}
