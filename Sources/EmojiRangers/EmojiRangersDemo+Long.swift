import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushAPIClient
import OpenAPIRuntime

extension EmojiRangersDemo {
    /// One hero of the long adventure: the activity the iPhone runs now, and its renewal.
    struct LongSeat: Sendable {
        var seat: Seat
        /// The hero's running adventure activity (the renewed one once renewed).
        var activityID: String
        /// The server's `renewal.renewAt` of the first activity.
        var renewAt: Date
        var renewed = false
        var failure: String?
        /// Updates sent after the renewal, and how many the new activity showed.
        var updatesAfterRenewal = 0
        var appliedAfterRenewal = 0
    }

    /// The long adventure (`--long`): each hero's activity is registered with a renewal plan, then the
    /// simulator's clock moves forward a quarter of an hour at a time for ``DemoOptions/longHours`` hours
    /// (the server's lifecycle sweep follows it), with a party update every simulated hour. At
    /// ``DemoOptions/renewBefore`` the server starts a new activity on each iPhone by push-to-start, the
    /// app's LivePushKit reporter registers it, the server links it and ends the old one; the later
    /// updates reach the new one. Each step is checked on the server and on the iPhones.
    func playLong(_ adventure: Adventure, seats: [Seat], progress: (DemoProgress) -> Void) async throws(DemoError) -> DemoSummary {
        let start = simulator.clock.now()
        var heroes: [LongSeat] = []
        for seat in seats { heroes.append(try await planRenewal(seat)) }
        progress(
            .longAdventure(
                "each hero's adventure is registered with renewal {renewBefore: \(DemoOptions.renewBefore)} (POST /v1/activities); "
                    + "the simulator's clock now moves forward 15 minutes at a time"))
        var problems: [String] = []
        var sent = 0
        var applied = 0
        let hours = DemoOptions.longHours
        let quarter: ClockStep
        do { quarter = try ClockStep(seconds: 900) } catch { throw .device("\(error)") }
        for step in 1...(hours * 4) {
            if Task.isCancelled { throw .cancelled }
            simulator.clock.advance(by: quarter)
            let now = simulator.clock.now()
            for index in heroes.indices where !heroes[index].renewed && heroes[index].failure == nil && heroes[index].renewAt <= now {
                try await awaitRenewal(&heroes[index], elapsed: now.timeIntervalSince(start), progress: progress)
            }
            guard step % 4 == 0 else { continue }
            let hour = step / 4
            let state = AdventureContentState(
                currentHealthLevel: max(0.25, 1 - Double(hour) * 0.05), eventDescription: "Hour \(hour): the party presses on")
            let update = Components.Schemas.Update(
                contentState: state.jsonValue, alert: nil, priority: Components.Schemas.Priority(rawValue: 5).map { .init(value1: $0) },
                staleDate: nil, relevanceScore: AdventureEngine.routineRelevance)
            _ = try await APICall("POST", "/v1/groups/\(Self.partyGroup)/update").run {
                try await backend.updateGroup(path: .init(groupId: Self.partyGroup), body: .json(update))
            }
            var shown = 0
            for index in heroes.indices {
                sent += 1
                let arrived = await shows(heroes[index].activityID, state.jsonValue)
                if arrived { shown += 1 } else { problems.append("hour \(hour): \(heroes[index].seat.hero.name)'s activity never showed the update") }
                if arrived, await !recorded(heroes[index].activityID, state) {
                    problems.append("hour \(hour): the server never recorded \(heroes[index].seat.hero.name)'s update as delivered")
                }
                if heroes[index].renewed {
                    heroes[index].updatesAfterRenewal += 1
                    if arrived { heroes[index].appliedAfterRenewal += 1 }
                }
            }
            applied += shown
            let renewedNow = heroes.filter(\.renewed).count
            progress(
                .longAdventure(
                    "[\(hour)h/\(hours)h] p5 \(state.eventDescription)  → party (\(heroes.count))  "
                        + (shown == heroes.count ? "✓" : "✗") + " \(shown)/\(heroes.count) applied"
                        + (renewedNow > 0 ? " (\(renewedNow) on renewed activities)" : "")))
        }
        let final = AdventureContentState(currentHealthLevel: 0.75, eventDescription: "The long quest is over after \(hours) hours")
        let end = Components.Schemas.End(
            contentState: .init(value1: final.jsonValue), alert: nil, priority: nil, staleDate: nil,
            relevanceScore: AdventureEngine.routineRelevance, dismissalDate: nil)
        _ = try await APICall("POST", "/v1/groups/\(Self.partyGroup)/end").run {
            try await backend.endGroup(path: .init(groupId: Self.partyGroup), body: .json(end))
        }
        var states: [DemoHeroState] = []
        for hero in heroes {
            sent += 1
            let ended = await endsWith(hero.activityID, final.jsonValue)
            if ended { applied += 1 } else { problems.append("\(hero.seat.hero.name)'s activity did not end with the final state") }
            if let snapshot = try? await simulator.world.activity(id: hero.activityID) {
                states.append(
                    DemoHeroState(
                        hero: hero.seat.hero, deviceID: hero.seat.deviceID, activityID: hero.activityID, state: snapshot.state,
                        endedBy: snapshot.endedBy, contentState: snapshot.contentState, dismissalDate: snapshot.dismissalDate,
                        alerts: snapshot.alerts.count))
            }
        }
        progress(.longAdventure("[end] \(final.eventDescription)  → party (\(heroes.count))  ended"))
        problems += heroes.compactMap { hero in hero.failure.map { "\(hero.seat.hero.name)'s renewal failed: \($0)" } }
        let log = await simulator.world.pushes(limit: simulator.world.rules.pushLogLimit)
        problems += Self.decodeFailures(in: log)
        var summary = DemoSummary(
            seed: adventure.seed, events: hours + 1, pushes: sent, applied: applied, superseded: 0, downgrades: 0,
            alertsShown: states.reduce(0) { $0 + $1.alerts }, staleSeen: false,
            decodeFailures: log.filter { $0.outcome?.kind == .decodeFailure }.count, heroes: states, problems: problems)
        summary.renewals = DemoRenewals(
            heroes: heroes.count, renewed: heroes.filter(\.renewed).count, failures: heroes.compactMap(\.failure),
            renewBefore: DemoOptions.renewBefore, updatesAfterRenewal: heroes.reduce(0) { $0 + $1.updatesAfterRenewal },
            appliedAfterRenewal: heroes.reduce(0) { $0 + $1.appliedAfterRenewal })
        await recordSettledTokens(of: seats, in: &summary)
        return summary
    }

    /// Registers the hero's adventure activity again with its renewal plan, as the app does with its user
    /// token (LivePushKit's registration carries no renewal object), and reads back when it is due.
    private func planRenewal(_ seat: Seat) async throws(DemoError) -> LongSeat {
        let snapshot: ActivitySnapshot
        do {
            snapshot = try await simulator.world.activity(id: seat.activityID)
        } catch {
            throw .device(error.description)
        }
        guard let token = snapshot.pushToken else { throw .device("\(seat.hero.name)'s adventure activity has no push token") }
        let userID = seat.app.userID
        let userToken = try await APICall("POST", "/v1/users/\(userID)/app-tokens").run {
            try await backend.mintAppToken(path: .init(userId: userID), body: .json(.init(ttlSeconds: 3600, groups: [Self.partyGroup])))
        }.token
        let app = try Client.livePush(baseURL: serverURL, key: userToken, session: session)
        let renewal = Components.Schemas.Renewal(
            renewBefore: DemoOptions.renewBefore, attributes: seat.hero.attributes,
            alert: Components.Schemas.Alert(value1: .init(title: .PlainText("The quest goes on")), value2: nil, value3: nil))
        let body = Components.Schemas.ActivityRegistration(
            activityId: seat.activityID, pushToken: token, bundleId: Self.bundleID, attributesType: Self.attributesType, environment: .sandbox,
            groups: [Self.partyGroup], renewal: .init(value1: renewal))
        _ = try await APICall("POST", "/v1/activities").run { try await app.registerActivity(body: .json(body)) }
        let detail = try await APICall("GET", "/v1/activities/\(seat.activityID)").run {
            try await backend.getActivity(path: .init(activityId: seat.activityID))
        }
        guard let renewAt = detail.renewal?.renewAt else {
            throw .api(method: "GET", path: "/v1/activities/\(seat.activityID)", status: 200, message: "the activity has no renewal plan")
        }
        return LongSeat(seat: seat, activityID: seat.activityID, renewAt: renewAt)
    }

    /// Waits (30 s at most) until the server says the hero's renewal is over; when renewed, until the
    /// iPhone runs the new activity and the old one ended.
    private func awaitRenewal(_ hero: inout LongSeat, elapsed: TimeInterval, progress: (DemoProgress) -> Void) async throws(DemoError) {
        let name = hero.seat.hero.name
        let old = hero.activityID
        let deadline = Date().addingTimeInterval(30)
        var renewal: Components.Schemas.RenewalStatus?
        while true {
            let activityID = old
            renewal = try await APICall("GET", "/v1/activities/\(old)").run {
                try await backend.getActivity(path: .init(activityId: activityID))
            }.renewal
            if renewal?.state == .failed || (renewal?.state == .renewed && renewal?.renewedBy != nil) { break }
            if Task.isCancelled { throw .cancelled }
            if Date() > deadline {
                hero.failure = "still \(renewal?.state?.rawValue ?? "unplanned") after 30 s"
                progress(.longAdventure("\(Self.clockText(elapsed)) \(name): ✗ renewal \(hero.failure ?? "")"))
                return
            }
            await pause(0.02)
        }
        guard let new = renewal?.renewedBy, renewal?.state == .renewed else {
            hero.failure = renewal?.reason ?? "failed"
            progress(.longAdventure("\(Self.clockText(elapsed)) \(name): ✗ renewal failed (\(hero.failure ?? ""))"))
            return
        }
        let switched = await eventuallyTrue {
            let newState = try? await simulator.world.activity(id: new).state
            let oldState = try? await simulator.world.activity(id: old).state
            return newState == .active && (oldState == .ended || oldState == nil)
        }
        guard switched else {
            hero.failure = "the iPhone does not run \(new.prefix(8))… alone"
            progress(.longAdventure("\(Self.clockText(elapsed)) \(name): ✗ renewal \(hero.failure ?? "")"))
            return
        }
        hero.renewed = true
        hero.activityID = new
        progress(
            .longAdventure(
                "\(Self.clockText(elapsed)) \(name): renewed by push-to-start: \(new.prefix(8))… started on the iPhone, registered by LivePushKit "
                    + "and linked by the server; \(old.prefix(8))… ended"))
    }

    /// True once the activity shows `state` (20 s at most).
    func shows(_ activityID: String, _ state: JSONValue) async -> Bool {
        await eventuallyTrue { (try? await simulator.world.activity(id: activityID).contentState) == state }
    }

    /// True once the server recorded `state` as the activity's latest content-state (20 s at most). The
    /// iPhone shows an update before the server has read APNs' answer and recorded the page that sent it;
    /// the clock moves only after that: a worker's claim on the page runs on this clock, and a jump of 15
    /// minutes would hand the page to the other worker, which then finds the next hour's update replacing
    /// it, so the server would never learn the state a renewal starts with.
    private func recorded(_ activityID: String, _ state: AdventureContentState) async -> Bool {
        let backend = self.backend
        return await eventuallyTrue {
            let detail: Components.Schemas.ActivityDetail
            do {
                detail = try await APICall("GET", "/v1/activities/\(activityID)").run {
                    try await backend.getActivity(path: .init(activityId: activityID))
                }
            } catch {
                return false
            }
            return detail.activity.lastContentState?["eventDescription"]?.stringValue == state.eventDescription
        }
    }

    /// True once the activity ended by push with `state` (20 s at most).
    func endsWith(_ activityID: String, _ state: JSONValue) async -> Bool {
        await eventuallyTrue {
            guard let snapshot = try? await simulator.world.activity(id: activityID) else { return false }
            return snapshot.state == .ended && snapshot.endedBy == .push && snapshot.contentState == state
        }
    }

    /// Whether `condition` came to hold: it is asked until it does, for up to 60 s. Each step it waits for
    /// takes well under a second on an idle machine; the bound is for a demo whose step never happens (it
    /// then reports a problem), and is generous for a machine busy with other work (20 s were once not
    /// enough for a queued state to reach an iPhone while the test suite ran beside busy loops).
    func eventuallyTrue(_ condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while !Task.isCancelled {
            if await condition() { return true }
            if Date() > deadline { return false }
            await pause(0.02)
        }
        return false
    }

    /// Simulated time since the long adventure began: `7h45m`.
    static func clockText(_ seconds: TimeInterval) -> String {
        let minutes = Int(seconds / 60)
        return "\(minutes / 60)h\(String(format: "%02d", minutes % 60))m"
    }
}
