import APNsSimulator
import Foundation
import LivePushKit

extension EmojiRangersDemo {
    /// One iPhone per player, its app's adventure activity, and the hero it plays.
    struct Seat: Sendable {
        var hero: Hero
        var deviceID: String
        var activityID: String
        /// The player's side quest on the same iPhone.
        var sideQuestID: String
        /// The app on the iPhone: LivePushKit, fed by the simulated adapter.
        var app: PlayerApp
    }

    /// Adds one simulated iPhone per player with the app running in `group` (LivePushKit's reporter and the
    /// simulated adapter), lets each app start its adventure activity and its side quest, and waits until
    /// every app's reporter says the server holds its tokens.
    func seatPlayers(
        _ party: [Hero], adventure: Adventure, in group: inout TaskGroup<Void>, progress: (DemoProgress) -> Void
    ) async throws(DemoError) -> [Seat] {
        var seats: [Seat] = []
        for hero in party {
            let deviceName = "\(hero.name)'s iPhone"
            let device: DeviceCreated
            do {
                device = try await simulator.world.addDevice(DeviceRegistration(name: deviceName, bundleID: Self.bundleID, environment: "sandbox"))
            } catch {
                throw .device(error.description)
            }
            let journal = directory.appendingPathComponent("iphones", isDirectory: true).appendingPathComponent(hero.id, isDirectory: true)
            let app = try await PlayerApp.make(hero: hero, deviceID: device.deviceID, demo: self, journalFolder: journal)
            group.addTask { await app.run() }
            do {
                // The app calls Activity.request(attributes:content:pushType: .token), twice.
                let activity = try await simulator.world.startActivity(
                    deviceID: device.deviceID,
                    ActivityRequest(
                        attributesType: Self.attributesType, attributes: hero.attributes,
                        contentState: adventure.initialState.jsonValue, relevanceScore: AdventureEngine.routineRelevance
                    ))
                let quest = SideQuest(hero: hero, seed: options.seed)
                let side = try await simulator.world.startActivity(
                    deviceID: device.deviceID,
                    ActivityRequest(
                        attributesType: SideQuest.attributesType, attributes: quest.attributes,
                        contentState: quest.contentState.jsonValue, relevanceScore: SideQuest.relevanceScore
                    ))
                seats.append(Seat(hero: hero, deviceID: device.deviceID, activityID: activity.activityID, sideQuestID: side.activityID, app: app))
                progress(.playerJoined(hero: hero, deviceName: deviceName, activityID: activity.activityID))
            } catch {
                throw .device(error.description)
            }
        }
        let tokens = try await tokensReported(seats)
        progress(.tokensRegistered(tokens))
        return seats
    }

    /// Waits (60 s at most: a hang guard, as the reporters retry with back-off on a busy machine) until each
    /// app's reporter says the server stored its two activity tokens and its
    /// push-to-start token, with nothing pending; what the reporters say then.
    private func tokensReported(_ seats: [Seat]) async throws(DemoError) -> DemoTokens {
        let deadline = Date().addingTimeInterval(60)
        while true {
            var missing: [(seat: Seat, status: ReportStatus)] = []
            for seat in seats {
                let status = await seat.app.status
                if status.refused > 0 {
                    throw .registrationTimedOut(heroes: [seat.hero.name], detail: "the server refused \(status.refused) of its tokens (see the log)")
                }
                if status.activityTokensStored < 2 || status.pushToStartTokensStored < 1 || status.pending > 0 {
                    missing.append((seat, status))
                }
            }
            if missing.isEmpty { return await tokens(of: seats) }
            if Task.isCancelled { throw .cancelled }
            if Date() > deadline {
                let detail = missing.map {
                    "\($0.seat.hero.name)'s app: \($0.status.activityTokensStored) activity and \($0.status.pushToStartTokensStored) push-to-start tokens stored, \($0.status.pending) pending"
                }
                throw .registrationTimedOut(heroes: missing.map(\.seat.hero.name), detail: "after 60 s, " + detail.joined(separator: "; "))
            }
            await pause(0.02)
        }
    }

    /// What the players' reporters say the server holds, summed over the apps.
    func tokens(of seats: [Seat]) async -> DemoTokens {
        var tokens = DemoTokens(apps: seats.count)
        for seat in seats {
            let status = await seat.app.status
            tokens.activityTokens += status.activityTokensStored
            tokens.pushToStartTokens += status.pushToStartTokensStored
            tokens.pending += status.pending
            tokens.refused += status.refused
        }
        return tokens
    }

    /// How long the apps' reporters get to settle before the demo gives up on them: a hang guard (a server
    /// that stopped answering), not a bound for a busy machine, where the wait ends when they settle.
    static let settleGuard: Duration = .seconds(300)

    /// Waits until every app's reporter owes the server nothing (``LivePushReporter/settled()``: what the
    /// adventure's end made it report was stored, or refused for good), then records what they say in
    /// `summary`, with a problem when a report is pending (the guard ran out) or a token was refused.
    func recordSettledTokens(of seats: [Seat], in summary: inout DemoSummary) async {
        let settled = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withTaskGroup(of: Void.self) { reporters in
                    for seat in seats { reporters.addTask { await seat.app.reporter.settled() } }
                }
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: Self.settleGuard)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let tokens = await tokens(of: seats)
        summary.tokens = tokens
        if !settled, tokens.pending > 0, !Task.isCancelled {
            summary.problems.append(
                "the apps' LivePushKit reporters still had \(tokens.pending) reports pending after \(Self.settleGuard.components.seconds) s (see the log)"
                    + (tokens.refused > 0 ? " and \(tokens.refused) tokens refused" : ""))
        } else if tokens.pending > 0 || tokens.refused > 0 {
            summary.problems.append("the apps' LivePushKit reporters have \(tokens.pending) reports pending and \(tokens.refused) tokens refused")
        }
    }
}
