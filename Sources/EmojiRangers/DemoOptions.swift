import Foundation

/// How `livepush demo` plays: pace, party, seed and ports.
package struct DemoOptions: Sendable {
    /// Pace multiplier: 2 plays twice as fast. Also shortens the stale and dismissal delays.
    package var speed: Double = 1
    /// Heroes (and simulated iPhones) in the party: 3 or 4.
    package var partySize = 4
    /// The adventure's seed; the same seed plays the same adventure.
    package var seed: UInt64 = 1
    /// The simulator's APNs port (0: a free one).
    package var apnsPort = 0
    /// The simulator's control port, which serves the dashboard (0: a free one).
    package var controlPort = 0
    /// The LivePush server's HTTP port (0: a free one).
    package var serverPort = 0
    /// Simulated spectators following the party through one broadcast channel (0: none): one simulated iPhone
    /// each, all started by one audience start (whose `userIds` take 10,000 at most).
    package var spectators = 300
    /// The long adventure (`--long`): the party plays past the 8-hour limit on the simulator's clock, moved
    /// forward a quarter of an hour at a time, and each hero's activity is renewed by push-to-start.
    /// Spectators do not follow it.
    package var long = false
    /// After the first event, one update whose content-state the engine gets wrong on purpose (it misspells
    /// `currentHealthLevel`): the server knows the app's ContentState shape (the players' LivePushKit sent it)
    /// and must refuse it with 422 naming the field, so no iPhone ever gets it. For tests of that check.
    package var wrongContentState = false
    /// The accepted spectator counts.
    package static let spectatorCounts: ClosedRange<Int> = 0...10_000

    /// The long adventure's simulated hours, one update an hour, then the end.
    package static let longHours = 10
    /// When the long adventure's activities are renewed, as the registration's `renewal.renewBefore` says it.
    package static let renewBefore = "7h45m"

    /// Seconds between two events at speed 1.
    package static let eventInterval: TimeInterval = 2
    /// The accepted speeds.
    package static let speeds: ClosedRange<Double> = 0.1...1000

    package init() {}

    /// Checks the values; the error names the option and what is accepted.
    package func validate() throws(DemoError) {
        guard speed.isFinite, Self.speeds.contains(speed) else {
            throw .invalidOption(
                option: "--speed",
                rule: "is \(speed); accepted: \(Self.speeds.lowerBound) to \(Int(Self.speeds.upperBound)) (1 is the normal pace, 2 twice as fast)")
        }
        guard HeroRoster.partySizes.contains(partySize) else {
            throw .invalidOption(option: "--party-size", rule: "is \(partySize); accepted: 3 or 4")
        }
        guard Self.spectatorCounts.contains(spectators) else {
            throw .invalidOption(option: "--spectators", rule: "is \(spectators); accepted: 0 (none) to \(Self.spectatorCounts.upperBound)")
        }
        for (option, port) in [("--port", apnsPort), ("--control-port", controlPort), ("--server-port", serverPort)] {
            guard (0...65535).contains(port) else {
                throw .invalidOption(option: option, rule: "is \(port); accepted: 0 (a free port) to 65535")
            }
        }
    }

    /// The pause between events.
    var interval: TimeInterval { Self.eventInterval / speed }

    /// A relative adventure delay in wall-clock seconds at this speed, at least `minimum`.
    func scaled(_ delay: TimeInterval, minimum: TimeInterval) -> TimeInterval {
        max(minimum, delay / speed)
    }
}
