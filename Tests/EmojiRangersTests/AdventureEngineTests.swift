import APNsCore
import EmojiRangers
import LiveActivity
import Testing

@Suite struct AdventureEngineTests {
    let party = try! HeroRoster.party(size: 4)

    @Test func sameSeedPlaysTheSameAdventure() throws {
        let first = try AdventureEngine.plan(party: party, seed: 42)
        let second = try AdventureEngine.plan(party: party, seed: 42)
        #expect(first == second)
    }

    @Test func seedsChangeTheDetails() throws {
        let adventures = try (1...8).map { try AdventureEngine.plan(party: party, seed: UInt64($0)) }
        let descriptions = Set(adventures.map { $0.events.map(\.contentState.eventDescription) })
        #expect(descriptions.count > 1, "eight seeds gave one and the same adventure")
    }

    @Test func partySizeIsThreeOrFour() throws {
        #expect(try HeroRoster.party(size: 3).map(\.name) == ["Power Panda", "Egghead", "Cool Cat"])
        #expect(try HeroRoster.party(size: 4).last?.emoji == "👻")
        #expect(throws: AdventureError.partySize(2)) { try HeroRoster.party(size: 2) }
        #expect(throws: AdventureError.partySize(5)) { try AdventureEngine.plan(party: party + [party[0]], seed: 1) }
        #expect(throws: AdventureError.duplicateHero("egghead")) {
            try AdventureEngine.plan(party: [party[0], party[1], party[1]], seed: 1)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 7, 99, 2026])
    func knockedDownEventsCarryTheLocalizedAlert(seed: UInt64) throws {
        let adventure = try AdventureEngine.plan(party: party, seed: seed)
        let knocked = adventure.events.filter { $0.kind == .knockedDown }
        #expect(!knocked.isEmpty)
        #expect(knocked.first?.hero?.name == "Power Panda", "the boss's first strike downs the party's leader")
        for event in knocked {
            let hero = try #require(event.hero)
            #expect(event.priority == .immediate)
            #expect(event.audience == .party)
            #expect(event.alert?.title == .localized(key: "%@ is knocked down!", arguments: [hero.name]))
            #expect(event.alert?.body == .localized(key: "Use a potion to heal %@!", arguments: [hero.name]))
            #expect(event.alert?.sound == .file("HeroDown.mp4"))
            #expect(event.relevanceScore == AdventureEngine.bossFightRelevance)
            #expect(event.relevanceScore == adventure.events.map(\.relevanceScore).max())
        }
    }

    @Test(arguments: [UInt64(1), 5, 11, 12345])
    func routineEventsArePriorityFiveWithoutAlerts(seed: UInt64) throws {
        let adventure = try AdventureEngine.plan(party: party, seed: seed)
        let routine = adventure.events.filter { [.lootFound, .healed, .damaged, .revived, .reconnected, .connectionLost].contains($0.kind) }
        #expect(routine.count >= 6)
        for event in routine {
            #expect(event.priority == .conservesPower, "\(event.kind)")
            #expect(event.alert == nil)
            #expect(!event.isTimeSensitive)
        }
        let boss = try #require(adventure.events.first { $0.kind == .bossDefeated })
        #expect(boss.priority == .immediate && boss.alert != nil)
        #expect(adventure.events.filter { $0.priority == .immediate }.count <= 4, "well inside the hourly priority-10 budget")
    }

    @Test func aLostConnectionSetsAStaleDateOnThatHeroAlone() throws {
        let adventure = try AdventureEngine.plan(party: party, seed: 9)
        let index = try #require(adventure.events.firstIndex { $0.kind == .connectionLost })
        let lost = adventure.events[index]
        let hero = try #require(lost.hero)
        #expect(lost.audience == .hero(hero))
        #expect(hero != party[0])
        #expect(lost.staleAfter == AdventureEngine.staleAfter)
        #expect(adventure.events.filter { $0.staleAfter != nil }.count == 1, "only the lost hero's push has a stale date")
        let next = adventure.events[index + 1]
        #expect(next.kind == .reconnected && next.hero == hero && next.audience == .party)
    }

    @Test(arguments: [UInt64(3), 4, 8])
    func theEndCarriesTheFinalStateAndADismissal(seed: UInt64) throws {
        let adventure = try AdventureEngine.plan(party: try HeroRoster.party(size: 3), seed: seed)
        let end = try #require(adventure.events.last)
        #expect(end.isEnd && end.kind == .adventureOver)
        #expect(end.audience == .party)
        #expect(end.dismissAfter == AdventureEngine.dismissAfter)
        #expect(end.contentState.eventDescription.contains(adventure.place))
        #expect(adventure.events.filter(\.isEnd).count == 1)
        #expect(end.contentState.currentHealthLevel == adventure.events[adventure.events.count - 2].contentState.currentHealthLevel)
    }

    @Test func healthStaysInRangeAndEventsAreNumbered() throws {
        for seed in UInt64(0)..<50 {
            let adventure = try AdventureEngine.plan(party: party, seed: seed)
            #expect(adventure.initialState.currentHealthLevel == 1)
            #expect(adventure.events.map(\.number) == Array(1...adventure.events.count))
            #expect(adventure.events.allSatisfy { (0...1).contains($0.contentState.currentHealthLevel) })
            #expect((11...18).contains(adventure.events.count), "\(adventure.events.count) events for seed \(seed)")
            let knocked = try #require(adventure.events.first { $0.kind == .knockedDown })
            #expect(knocked.contentState.currentHealthLevel < 1)
        }
    }

    @Test func seededGeneratorRepeats() {
        var first = SeededRandom(seed: 77)
        var second = SeededRandom(seed: 77)
        var other = SeededRandom(seed: 78)
        let a = (0..<5).map { _ in first.next() }
        #expect(a == (0..<5).map { _ in second.next() })
        #expect(a != (0..<5).map { _ in other.next() })
    }

    @Test func contentStateMatchesTheAppSchema() throws {
        let adventure = try AdventureEngine.plan(party: party, seed: 1)
        for event in adventure.events {
            #expect(AdventureContentState.schema.check(event.contentState.jsonValue).isEmpty)
            #expect(AdventureContentState(json: event.contentState.jsonValue) == event.contentState)
        }
        #expect(AdventureContentState.schema.check(["currentHealthLevel": "full"]).count == 2)
    }

    @Test func sideQuestsSitBetweenCalmAndTheBossFight() throws {
        #expect(AdventureEngine.routineRelevance < SideQuest.relevanceScore)
        #expect(SideQuest.relevanceScore < AdventureEngine.bossFightRelevance)
        let quest = SideQuest(hero: party[2], seed: 5)
        #expect(quest == SideQuest(hero: party[2], seed: 5))
        #expect(quest.contentState.eventDescription.hasPrefix("😼 Cool Cat is "))
        #expect(quest.attributes["name"] == "Cool Cat's side quest")
        let adventure = try AdventureEngine.plan(party: party, seed: 5)
        let fight = adventure.events.filter { $0.relevanceScore > SideQuest.relevanceScore }.map(\.kind)
        #expect(fight.first == .bossAppeared && fight.last == .bossDefeated, "\(fight)")
    }
}
