import APNsCore
import Foundation
import LiveActivity

/// One moment of an adventure, with everything needed to push it: what the activities show, to whom, how
/// urgently, and the alert, stale date and dismissal it carries.
package struct AdventureEvent: Sendable, Hashable {
    /// What happened.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case lootFound, healed, damaged, connectionLost, reconnected, bossAppeared, knockedDown, revived,
            bossDefeated, adventureOver
    }

    /// Which activities receive the event.
    package enum Audience: Sendable, Hashable {
        /// Every party member's activity (the party's group).
        case party
        /// Only this hero's activity.
        case hero(Hero)
    }

    /// 1 for the first event.
    package var number: Int
    package var kind: Kind
    /// The hero the event is about, if any.
    package var hero: Hero?
    package var audience: Audience
    /// The content state after the event.
    package var contentState: AdventureContentState
    /// 10 for what the player must see now (an alert), 5 for routine progress.
    package var priority: APNsPriority
    /// The alert banner (with its sound), for time-sensitive events.
    package var alert: LiveActivityAlert?
    /// How important the adventure is right now, relative to the player's other Live Activities (0 to 100):
    /// the system shows the most relevant activity first.
    package var relevanceScore: Double
    /// For a hero losing connection: the content becomes outdated this long after the push.
    package var staleAfter: TimeInterval?
    /// For the end: the activity leaves the Lock Screen this long after the push.
    package var dismissAfter: TimeInterval?

    /// True for the end of the adventure (an `end` push).
    package var isEnd: Bool { kind == .adventureOver }

    /// Importance in the server's terms: time-sensitive at priority 10, routine at 5.
    package var isTimeSensitive: Bool { priority == .immediate }
}

/// A whole adventure, planned from a party and a seed.
package struct Adventure: Sendable, Hashable {
    package var party: [Hero]
    package var seed: UInt64
    /// Where the party goes.
    package var place: String
    /// The boss at the end.
    package var boss: String
    /// What each activity shows when the app starts it.
    package var initialState: AdventureContentState
    /// The events in order; the last one ends the adventure.
    package var events: [AdventureEvent]
}
