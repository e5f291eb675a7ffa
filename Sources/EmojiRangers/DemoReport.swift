import APNsCore
import APNsSimulator
import Foundation
import LiveActivity

/// One push of an event to one hero's activity, followed to the device.
package struct DemoDelivery: Sendable, Hashable {
    package var hero: Hero
    package var activityID: String
    /// The server's outcome: accepted, rejected, failed, expired, coalesced; nil when none was recorded in time.
    package var serverOutcome: String?
    /// The priority the server sent with (5 after a budget downgrade).
    package var sentPriority: Int?
    package var downgradeReason: String?
    /// What the simulated device did with it (`applied`, `throttled`, `decodeFailure`, …).
    package var deviceOutcome: DeviceOutcome.Kind?

    /// True when APNs accepted the push and the device applied it.
    package var arrived: Bool { serverOutcome == "accepted" && deviceOutcome == .applied }
    /// True when a newer routine update replaced it before it was sent (by design, not a loss).
    package var superseded: Bool { serverOutcome == "coalesced" }
}

/// What happened to one adventure event.
package struct DemoEventReport: Sendable, Hashable {
    package var event: AdventureEvent
    package var eventCount: Int
    /// The API call that pushed it.
    package var route: String
    package var deliveries: [DemoDelivery]
    /// Pushes the server downgraded to priority 5 (hourly budget).
    package var downgrades: Int
    /// Activities of the audience the server skipped (ended, invalid token), with the reason.
    package var skipped: [String]
    /// For a lost connection: whether the hero's activity was seen stale on the device.
    package var staleSeen: Bool?
    /// When the event changed the adventure's relevance: whether every iPhone now orders its Lock Screen by
    /// it (the party adventure above the side quest exactly when its relevance is higher). Nil: not checked.
    package var lockScreensFollowRelevance: Bool?
    /// For a knocked-down event: the alert titles the devices showed (resolved from the localization table).
    package var alertTitles: [String]
    /// The spectators following through the broadcast channel (0: none) and how many show this event.
    package var spectatorsFollowing = 0
    package var spectatorsReached = 0

    /// True when the event's relevance puts the party adventure above the side quest.
    package var adventureFirst: Bool { event.relevanceScore > SideQuest.relevanceScore }

    /// Everything that went wrong; empty when every push arrived.
    package var problems: [String] {
        var out: [String] = []
        for delivery in deliveries where !delivery.arrived && !delivery.superseded {
            out.append(
                "\(delivery.hero.name): server \(delivery.serverOutcome ?? "no outcome"), device \(delivery.deviceOutcome?.rawValue ?? "nothing")")
        }
        out += skipped.map { "skipped: \($0)" }
        if staleSeen == false { out.append("\(event.hero?.name ?? "the hero")'s activity never showed as stale") }
        if spectatorsReached < spectatorsFollowing {
            out.append("the broadcast reached \(spectatorsReached) of \(spectatorsFollowing) spectators")
        }
        if lockScreensFollowRelevance == false {
            out.append(
                "relevance \(Int(event.relevanceScore)) did not put the \(adventureFirst ? "adventure" : "side quest") first on every Lock Screen")
        }
        return out
    }

    /// The progress line: number, priority, what, to whom, outcome.
    package var line: String {
        let number = String(event.number).leftPadded(to: String(eventCount).count)
        let audience: String
        switch event.audience {
        case .party: audience = "party (\(deliveries.count))"
        case .hero(let hero): audience = hero.name
        }
        let applied = deliveries.filter(\.arrived).count
        var outcome = problems.isEmpty ? "✓ \(applied)/\(deliveries.count) applied" : "✗ " + problems.joined(separator: "; ")
        if let staleSeen, staleSeen { outcome += ", stale ✓" }
        if lockScreensFollowRelevance == true {
            outcome += ", relevance \(Int(event.relevanceScore)): \(adventureFirst ? "adventure" : "side quest") first on the Lock Screens"
        }
        if let title = alertTitles.first { outcome += ", alert “\(title)”" }
        if downgrades > 0 { outcome += ", \(downgrades) downgraded to p5" }
        if spectatorsFollowing > 0, spectatorsReached == spectatorsFollowing { outcome += ", 1 broadcast → \(spectatorsReached) spectators" }
        if event.isEnd { outcome += ", ended" }
        return "[\(number)/\(eventCount)] p\(event.priority.rawValue) \(event.contentState.eventDescription)  → \(audience)  \(outcome)"
    }
}

/// A hero's activity as the simulated iPhone shows it at the end.
package struct DemoHeroState: Sendable, Hashable {
    package var hero: Hero
    package var deviceID: String
    package var activityID: String
    package var state: ActivityLifecycle
    package var endedBy: ActivityEndCause?
    package var contentState: JSONValue
    package var dismissalDate: Date?
    package var alerts: Int
}

/// The closing summary of a demo run.
package struct DemoSummary: Sendable, Hashable {
    package var seed: UInt64
    package var events: Int
    /// Pushes the server accepted for sending.
    package var pushes: Int
    /// Pushes APNs accepted and the devices applied.
    package var applied: Int
    package var superseded: Int
    package var downgrades: Int
    package var alertsShown: Int
    package var staleSeen: Bool
    /// Pushes the simulated devices could not decode (0 when the payloads match the app's ContentState).
    package var decodeFailures: Int
    package var heroes: [DemoHeroState]
    /// Spectators following through the channel, and how many the broadcast of each event reached.
    package var spectators = 0
    package var spectatorsReached: [Int] = []
    /// The audience start that began the spectators' activities, joined to the channel.
    package var spectatorStart: DemoAudienceStart?
    /// What the players' apps got to the server through LivePushKit, from their reporters, after the adventure.
    package var tokens: DemoTokens?
    /// Every problem, per event; empty when every push arrived.
    package var problems: [String]
    /// The long adventure's renewals (`--long`); nil for the normal adventure.
    package var renewals: DemoRenewals?
    /// One hero's quest run as a Live Activity resource (the normal adventure).
    package var quest: DemoQuest?

    /// True when every push arrived, the stale activity was seen (the long adventure has no lost connection:
    /// every hero renewed instead), nothing failed to decode and every app's reporter has nothing pending and
    /// nothing refused.
    package var succeeded: Bool {
        problems.isEmpty && decodeFailures == 0 && (renewals?.succeeded ?? staleSeen) && tokens?.pending == 0 && tokens?.refused == 0
    }

    /// The summary as lines for the terminal.
    package var lines: [String] {
        var out = [
            "Summary (seed \(seed))",
            "  events: \(events)   pushes accepted by the server: \(pushes)   applied on the iPhones: \(applied)"
                + (superseded > 0 ? "   superseded: \(superseded)" : ""),
            "  priority-10 downgrades: \(downgrades)   alerts shown: \(alertsShown)"
                + (renewals == nil ? "   stale activity seen: \(staleSeen ? "yes" : "no")" : "") + "   decode failures: \(decodeFailures)",
        ]
        if let renewals { out.append("  " + renewals.line) }
        if let quest { out.append("  " + quest.line) }
        if let tokens { out.append("  " + tokens.line) }
        // The adventure's content state is the party's (every hero's activity gets the same group
        // updates): say it once, and on a hero's line only where that activity shows something else.
        if spectators > 0 {
            out.append(
                "  spectators: \(spectators) following one broadcast channel; reached per event: "
                    + spectatorsReached.map(String.init).joined(separator: ", ") + " (one broadcast request each)")
        }
        if let spectatorStart { out.append("  spectators' activities: " + spectatorStart.line) }
        let shared = Self.mostCommon(heroes.map(\.contentState))
        if let shared { out.append("  the party's activities show: \(Self.describe(shared))") }
        out.append("  final state of each hero's activity:")
        for hero in heroes {
            let ended = hero.endedBy.map { " by \($0.rawValue)" } ?? ""
            let shows = hero.contentState == shared ? "" : ", shows \(Self.describe(hero.contentState))"
            let dismissal = hero.dismissalDate.map { ", leaves the Lock Screen at \(ISO8601DateFormatter().string(from: $0))" } ?? ""
            out.append("    \(hero.hero.label): \(hero.state.rawValue)\(ended)\(shows)\(dismissal)")
        }
        if problems.isEmpty {
            out.append(succeeded ? "Every push arrived." : "Not every check passed.")
        } else {
            out.append("Problems:")
            out += problems.map { "  - \($0)" }
        }
        return out
    }
}

extension DemoSummary {
    /// `health 76%, “The party rests”`.
    package static func describe(_ state: JSONValue) -> String {
        let level = state["currentHealthLevel"]?.numberValue.map { "\(Int(($0 * 100).rounded()))%" } ?? "?"
        let text = state["eventDescription"]?.stringValue ?? "?"
        return "health \(level), “\(text)”"
    }

    /// The state most activities show (the first of the most frequent); nil without activities.
    static func mostCommon(_ states: [JSONValue]) -> JSONValue? {
        var best: (state: JSONValue, count: Int)?
        for state in states {
            let count = states.filter { $0 == state }.count
            if count > (best?.count ?? 0) { best = (state, count) }
        }
        return best?.state
    }
}

/// What the demo reports while it plays.
package enum DemoProgress: Sendable, Hashable {
    /// A player's iPhone joined and its app started the adventure activity.
    case playerJoined(hero: Hero, deviceName: String, activityID: String)
    /// Every app's LivePushKit reporter got its tokens to the server.
    case tokensRegistered(DemoTokens)
    /// One audience start began the spectators' activities on their iPhones, joined to the party's broadcast channel.
    case spectatorsJoined(DemoAudienceStart, channelID: String)
    /// One event was pushed and followed to the devices.
    case event(DemoEventReport)
    /// A step of the long adventure (`--long`): the renewal plans, an hour's update, a renewal.
    case longAdventure(String)
    /// The update the engine got wrong on purpose (``DemoOptions/wrongContentState``), and what the server said.
    case wrongContentState(String)
    /// One hero's quest, run as a Live Activity resource: what each PUT and the DELETE did.
    case quest(String)

    /// The progress line.
    package var line: String {
        switch self {
        case .playerJoined(let hero, let deviceName, let activityID):
            return "\(hero.label) joins on \(deviceName): adventure activity \(activityID.prefix(8))… started"
        case .tokensRegistered(let tokens):
            return
                "the apps' LivePushKit reporters uploaded \(tokens.activityTokens) activity tokens and \(tokens.pushToStartTokens) push-to-start tokens (POST /v1/activities, PUT /v1/push-to-start-tokens)"
        case .spectatorsJoined(let start, let channelID):
            return "\(start.spectators) spectators follow the party through one broadcast channel (POST /v1/channels → \(channelID.prefix(8))…): "
                + "1 audience start (POST /v1/starts with inputPushChannel → \(start.sent) sent) started the activity on \(start.joined) iPhones"
        case .event(let report):
            return report.line
        case .longAdventure(let line), .wrongContentState(let line), .quest(let line):
            return line
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
