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

    /// The apps' tokens once they have sent what the adventure's end made them report (60 s at most: on a
    /// machine whose cores are busy with other work, 10 s was seen to end before a report was sent).
    func settledTokens(of seats: [Seat]) async -> DemoTokens {
        let deadline = Date().addingTimeInterval(60)
        var tokens = await tokens(of: seats)
        while tokens.pending > 0, Date() < deadline, !Task.isCancelled {
            await pause(0.02)
            tokens = await self.tokens(of: seats)
        }
        return tokens
    }
}
