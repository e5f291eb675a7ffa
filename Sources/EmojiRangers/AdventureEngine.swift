import APNsCore
import Foundation
import LiveActivity

/// Plans an Emoji Rangers adventure: pure logic, no clock, no I/O. The same party and seed always give the
/// same adventure.
///
/// Every adventure has the same acts, with the details (who, what, how much) drawn from the seed:
/// exploration (routine loot, damage and healing at priority 5), one hero losing connection (a stale date
/// on that hero's activity alone) and coming back, the boss fight (the party's leader knocked down with a
/// localized alert and a custom sound at priority 10, maybe a second hero too, a potion each time), the boss
/// defeated (priority 10), the spoils, and the end with the final state and a dismissal.
package enum AdventureEngine {
    /// Relevance during calm moments.
    package static let routineRelevance: Double = 50
    /// Relevance while the boss fight is on: the adventure goes first among the player's activities.
    package static let bossFightRelevance: Double = 100
    /// How long after a hero loses connection their activity shows its content as outdated.
    package static let staleAfter: TimeInterval = 3
    /// How long the ended adventure stays on the Lock Screen.
    package static let dismissAfter: TimeInterval = 60

    static let places = ["the Crystal Caves", "the Whispering Woods", "Mount Ember", "the Sunken Temple"]
    static let bosses = ["the Shadow Golem", "the Crystal Dragon", "King Gloom", "the Storm Hydra"]
    static let finds = ["3 gold coins", "a silver key", "a map fragment", "a glowing gem", "a bag of berries", "an old shield"]
    static let hazards = ["a falling rock", "a spike trap", "a swarm of bats", "a slippery ledge"]
    static let treasures = ["the Golden Acorn", "a chest of 100 gold coins", "the Ember Crown", "the Star Compass"]

    /// Plans the adventure of `party` (3 or 4 different heroes, the first leads) for `seed`.
    package static func plan(party: [Hero], seed: UInt64) throws(AdventureError) -> Adventure {
        guard HeroRoster.partySizes.contains(party.count) else { throw .partySize(party.count) }
        var seen = Set<String>()
        for hero in party where !seen.insert(hero.id).inserted { throw .duplicateHero(hero.id) }
        var script = Script(party: party, seed: seed)
        return script.play()
    }
}

/// The state of one adventure while it is planned.
private struct Script {
    let party: [Hero]
    let seed: UInt64
    var random: SeededRandom
    var health: [String: Double]
    var events: [AdventureEvent] = []
    var relevance = AdventureEngine.routineRelevance

    init(party: [Hero], seed: UInt64) {
        self.party = party
        self.seed = seed
        random = SeededRandom(seed: seed)
        health = Dictionary(uniqueKeysWithValues: party.map { ($0.id, 1.0) })
    }

    var leader: Hero { party[0] }

    mutating func play() -> Adventure {
        let place = pick(AdventureEngine.places)
        let boss = pick(AdventureEngine.bosses)
        let initial = AdventureContentState(currentHealthLevel: partyHealth, eventDescription: "The party sets out for \(place)")
        explore()
        loseConnection()
        bossFight(boss)
        finish(place: place)
        return Adventure(party: party, seed: seed, place: place, boss: boss, initialState: initial, events: events)
    }

    // MARK: - Acts

    mutating func explore() {
        let hurt = pick(party)
        let hazard = pick(AdventureEngine.hazards)
        let damage = amount(0.1...0.3)
        change(hurt, by: -damage)
        routine(.damaged, hurt, "\(hurt.label) lost \(points(damage)) health points to \(hazard)")
        var finds = 1 + Int.random(in: 0...1, using: &random)
        var healed = false
        while finds > 0 || !healed {
            if !healed, finds == 0 || Bool.random(using: &random) {
                let gain = min(amount(0.1...0.2), 1 - level(hurt))
                change(hurt, by: gain)
                routine(.healed, hurt, "\(hurt.label) healed \(points(gain)) health points")
                healed = true
            } else {
                let finder = pick(party)
                routine(.lootFound, finder, "\(finder.label) found \(pick(AdventureEngine.finds))")
                finds -= 1
            }
        }
    }

    mutating func loseConnection() {
        let lost = pick(Array(party.dropFirst()))
        append(
            .connectionLost, lost, audience: .hero(lost), "\(lost.label) lost connection 📡", priority: .conservesPower,
            staleAfter: AdventureEngine.staleAfter)
        routine(.reconnected, lost, "\(lost.label) is back online")
    }

    mutating func bossFight(_ boss: String) {
        relevance = AdventureEngine.bossFightRelevance
        routine(.bossAppeared, nil, "⚔️ \(boss.prefix(1).uppercased() + boss.dropFirst()) blocks the way!")
        knockDown(leader, by: boss)
        let hit = pick(Array(party.dropFirst()))
        let damage = amount(0.2...0.4)
        change(hit, by: -damage)
        routine(.damaged, hit, "\(hit.label) lost \(points(damage)) health points to \(boss)")
        if Bool.random(using: &random) {
            knockDown(hit, by: boss)
        }
        let defeated = "\(boss.prefix(1).uppercased() + boss.dropFirst()) is defeated!"
        append(
            .bossDefeated, nil, audience: .party, "🏆 \(defeated)", priority: .immediate,
            alert: LiveActivityAlert(title: "Victory!", body: .plain(defeated), sound: .default))
        relevance = AdventureEngine.routineRelevance
    }

    mutating func knockDown(_ hero: Hero, by boss: String) {
        change(hero, by: -level(hero))
        append(
            .knockedDown, hero, audience: .party, "💥 \(hero.label) is knocked down by \(boss)!", priority: .immediate,
            alert: AdventureLocalization.knockedDownAlert(hero))
        let healer = pick(party.filter { $0 != hero && level($0) > 0 })
        change(hero, by: 0.5)
        routine(.revived, hero, "🧪 \(healer.label) used a potion on \(hero.label)")
    }

    mutating func finish(place: String) {
        let finder = pick(party)
        routine(.lootFound, finder, "\(finder.label) found \(pick(AdventureEngine.treasures))")
        append(
            .adventureOver, nil, audience: .party, "🏁 Adventure complete: the party is home from \(place)",
            priority: .immediate, dismissAfter: AdventureEngine.dismissAfter)
    }

    // MARK: - Building blocks

    mutating func routine(_ kind: AdventureEvent.Kind, _ hero: Hero?, _ text: String) {
        append(kind, hero, audience: .party, text, priority: .conservesPower)
    }

    mutating func append(
        _ kind: AdventureEvent.Kind, _ hero: Hero?, audience: AdventureEvent.Audience, _ text: String,
        priority: APNsPriority, alert: LiveActivityAlert? = nil, staleAfter: TimeInterval? = nil,
        dismissAfter: TimeInterval? = nil
    ) {
        events.append(
            AdventureEvent(
                number: events.count + 1, kind: kind, hero: hero, audience: audience,
                contentState: AdventureContentState(currentHealthLevel: partyHealth, eventDescription: text),
                priority: priority, alert: alert, relevanceScore: relevance, staleAfter: staleAfter, dismissAfter: dismissAfter
            ))
    }

    /// The mean of the heroes' health, to two decimals.
    var partyHealth: Double {
        let total = party.reduce(0.0) { $0 + level($1) }
        return (total / Double(party.count) * 100).rounded() / 100
    }

    func level(_ hero: Hero) -> Double { health[hero.id] ?? 0 }

    mutating func change(_ hero: Hero, by delta: Double) {
        let updated = ((level(hero) + delta) * 100).rounded() / 100
        health[hero.id] = min(1, max(0, updated))
    }

    /// A random amount in `range`, in steps of 0.05.
    mutating func amount(_ range: ClosedRange<Double>) -> Double {
        let steps = Int(((range.upperBound - range.lowerBound) / 0.05).rounded())
        return range.lowerBound + Double(Int.random(in: 0...steps, using: &random)) * 0.05
    }

    /// A health change as health points (the bar is 100 points).
    func points(_ amount: Double) -> Int { Int((amount * 100).rounded()) }

    mutating func pick<T>(_ options: [T]) -> T {
        options[Int.random(in: 0..<options.count, using: &random)]
    }
}
