import APNsSimulator
import Foundation
import LiveActivity
import LivePushAPIClient
import OpenAPIRuntime

extension EmojiRangersDemo {
    /// Adds one simulated iPhone per player, whose app (LivePushKit) starts its adventure activity and
    /// reports its tokens, then plays the adventure event by event, following every push to the devices.
    /// The apps run until the adventure is over.
    package func play(progress: (DemoProgress) -> Void) async throws(DemoError) -> DemoSummary {
        guard
            played.withLock({ state in
                defer { state = true }
                return !state
            })
        else { throw .alreadyPlayed }
        let party: [Hero]
        let adventure: Adventure
        do {
            party = try HeroRoster.party(size: options.partySize)
            adventure = try AdventureEngine.plan(party: party, seed: options.seed)
        } catch {
            throw .invalidOption(option: "--party-size", rule: error.description)
        }
        let outcome: Result<DemoSummary, DemoError> = await withTaskGroup(of: Void.self) { group in
            defer { group.cancelAll() }
            do throws(DemoError) {
                let seats = try await seatPlayers(party, adventure: adventure, in: &group, progress: progress)
                if options.long { return .success(try await playLong(adventure, seats: seats, progress: progress)) }
                return .success(try await play(adventure, seats: seats, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The adventure, event by event, with the players' apps running.
    private func play(_ adventure: Adventure, seats: [Seat], progress: (DemoProgress) -> Void) async throws(DemoError) -> DemoSummary {
        let stands = try await seatSpectators(adventure: adventure, progress: progress)
        var reports: [DemoEventReport] = []
        var wrongContentStateProblems: [String] = []
        var relevance = AdventureEngine.routineRelevance
        for event in adventure.events {
            if Task.isCancelled { throw .cancelled }
            var report = try await push(event, of: adventure, seats: seats)
            if let stands { try await broadcast(event, of: adventure, to: stands, report: &report) }
            if Task.isCancelled { throw .cancelled }
            if event.relevanceScore != relevance, !event.isEnd {
                report.lockScreensFollowRelevance = await everyLockScreenShowsFirst(adventure: report.adventureFirst, seats)
                relevance = event.relevanceScore
            }
            reports.append(report)
            progress(.event(report))
            if options.wrongContentState, event.number == 1 {
                let (line, problem) = await pushWrongContentState()
                progress(.wrongContentState(line))
                if let problem { wrongContentStateProblems.append(problem) }
            }
            if !event.isEnd { await pause(options.interval) }
        }
        var summary = await summarize(adventure: adventure, seats: seats, reports: reports)
        if let first = seats.first {
            let quest = try await playQuest(first, problems: &summary.problems)
            progress(.quest(quest.line))
            summary.quest = quest
        }
        await recordSettledTokens(of: seats, in: &summary)
        summary.problems += wrongContentStateProblems
        summary.spectators = stands?.count ?? 0
        summary.spectatorStart = stands?.start
        summary.problems += stands?.start.problems ?? []
        summary.spectatorsReached = stands == nil ? [] : reports.map(\.spectatorsReached)
        return summary
    }

    // MARK: - Events

    /// The party's update with `currentHealthLevel` misspelt, as a backend's typo would send it: the server
    /// must refuse it (422, naming the field). The line says what happened; the problem, when it was not refused.
    private func pushWrongContentState() async -> (line: String, problem: String?) {
        let path = "/v1/groups/\(Self.partyGroup)/update"
        let misspelt: JSONValue = ["currentHealthLevl": 0.5, "eventDescription": "a typo in the backend"]
        let body = Components.Schemas.Update(contentState: misspelt)
        do {
            _ = try await APICall("POST", path).run { try await backend.updateGroup(path: .init(groupId: Self.partyGroup), body: .json(body)) }
            return ("✗ the engine's misspelt content-state was accepted (POST \(path))", "an update the iPhones cannot decode was accepted")
        } catch .api(_, _, let status, let message) where status == 422 {
            return ("✓ the engine's misspelt content-state was refused before any iPhone got it: 422 \(message)", nil)
        } catch {
            return ("✗ the engine's misspelt content-state: \(error)", "the misspelt content-state was not refused with 422: \(error)")
        }
    }

    private func push(_ event: AdventureEvent, of adventure: Adventure, seats: [Seat]) async throws(DemoError) -> DemoEventReport {
        let audience: [Seat]
        switch event.audience {
        case .party: audience = seats
        case .hero(let hero): audience = seats.filter { $0.hero == hero }
        }
        let now = Date()
        guard
            let request = PushRequest.make(
                for: event, group: Self.partyGroup, activityID: { hero in seats.first { $0.hero == hero }?.activityID },
                options: options, now: now
            )
        else {
            throw .device("no activity plays \(event.hero?.name ?? "the hero") for event \(event.number)")
        }
        var deliveries: [(delivery: DemoDelivery, apnsID: String?)]
        let downgrades: Int
        let skipped: [String]
        switch request.target {
        case .group(let group):
            // A group send answers with its id at once; its pushes carry that id in each history record.
            let answer = try await request.send(toGroup: group, with: backend)
            let progress = try await finished(answer)
            deliveries = try await follow(audience, expected: progress.counts.targeted - progress.counts.skipped) {
                $0.sendId == answer.sendId
            }
            downgrades = progress.counts.downgraded
            skipped = progress.counts.skipped == 0 ? [] : ["\(progress.counts.skipped) members were ended, dismissed or without a valid token"]
        case .activity(let id):
            let answer = try await request.send(toActivity: id, with: backend)
            let pushIDs = Set(answer.pushIds.map { $0.lowercased() })
            downgrades = answer.downgraded.count
            skipped = answer.skipped.map(\.reason)
            deliveries = try await follow(audience, expected: pushIDs.count) { pushIDs.contains($0.pushId.lowercased()) }
        }
        var titles: [String] = []
        for index in deliveries.indices {
            let seat = audience[index]
            guard let snapshot = try? await simulator.world.activity(id: seat.activityID) else { continue }
            let apnsID = deliveries[index].apnsID
            deliveries[index].delivery.deviceOutcome = snapshot.history.last { $0.apnsID == apnsID && apnsID != nil }?.outcome.kind
            if event.alert != nil, let title = snapshot.alerts.last(where: { $0.apnsID == apnsID })?.title {
                titles.append(title)
            }
        }
        var staleSeen: Bool?
        if let staleDate = request.staleDate, let seat = audience.first {
            staleSeen = await waitForStale(seat, after: staleDate)
        }
        return DemoEventReport(
            event: event, eventCount: adventure.events.count, route: "POST \(request.path)",
            deliveries: deliveries.map(\.delivery), downgrades: downgrades, skipped: skipped, staleSeen: staleSeen,
            alertTitles: Array(Set(titles)).sorted()
        )
    }

    /// The group send's progress once it has finished (or after 20 s).
    func finished(_ send: Components.Schemas.GroupSend) async throws(DemoError) -> Components.Schemas.GroupSend {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let progress = try await APICall("GET", "/v1/sends/\(send.sendId)").run {
                try await backend.getGroupSend(path: .init(sendId: send.sendId))
            }
            if progress.state == .finished || Date() > deadline || Task.isCancelled { return progress }
            await pause(0.02)
        }
    }

    /// Reads each audience activity's delivery history from the server until each has a record of the push
    /// (`matches`), or `expected` of them do.
    private func follow(
        _ audience: [Seat], expected: Int? = nil, matches: (Components.Schemas.Delivery) -> Bool
    ) async throws(DemoError) -> [(delivery: DemoDelivery, apnsID: String?)] {
        let deadline = Date().addingTimeInterval(20)
        var found: [String: Components.Schemas.Delivery] = [:]
        while true {
            for seat in audience where found[seat.activityID] == nil {
                let detail = try await APICall("GET", "/v1/activities/\(seat.activityID)").run {
                    try await backend.getActivity(path: .init(activityId: seat.activityID))
                }
                if let record = detail.deliveries.first(where: matches) { found[seat.activityID] = record }
            }
            // Skipped activities get no push: wait only for the pushes that exist.
            if found.count >= min(expected ?? audience.count, audience.count) || Date() > deadline || Task.isCancelled { break }
            await pause(0.02)
        }
        return audience.map { seat in
            let record = found[seat.activityID]
            let delivery = DemoDelivery(
                hero: seat.hero, activityID: seat.activityID, serverOutcome: record?.outcome.rawValue,
                sentPriority: record?.priority.rawValue, downgradeReason: record?.downgradeReason, deviceOutcome: nil
            )
            return (delivery, record?.apnsId)
        }
    }

    /// True when every iPhone shows the party adventure first (`adventure`) or the side quest first (not).
    private func everyLockScreenShowsFirst(adventure: Bool, _ seats: [Seat]) async -> Bool {
        for seat in seats {
            guard let device = try? await simulator.world.device(id: seat.deviceID) else { return false }
            let expected = adventure ? seat.activityID : seat.sideQuestID
            if device.activities.first?.activityID != expected { return false }
        }
        return true
    }

    /// Waits (a few seconds past the stale date at most) until the device shows the activity as stale.
    private func waitForStale(_ seat: Seat, after staleDate: Date) async -> Bool {
        let deadline = staleDate.addingTimeInterval(5)
        while Date() <= deadline, !Task.isCancelled {
            if let snapshot = try? await simulator.world.activity(id: seat.activityID), snapshot.state == .stale {
                return true
            }
            await pause(0.05)
        }
        return false
    }

    // MARK: - Summary

    private func summarize(adventure: Adventure, seats: [Seat], reports: [DemoEventReport]) async -> DemoSummary {
        var problems = reports.flatMap { report in report.problems.map { "event \(report.event.number) (\(report.event.kind.rawValue)): \($0)" } }
        var heroes: [DemoHeroState] = []
        let final = adventure.events.last?.contentState.jsonValue
        for seat in seats {
            guard let snapshot = try? await simulator.world.activity(id: seat.activityID) else {
                problems.append("\(seat.hero.name)'s activity is gone from the simulator")
                continue
            }
            heroes.append(
                DemoHeroState(
                    hero: seat.hero, deviceID: seat.deviceID, activityID: seat.activityID, state: snapshot.state,
                    endedBy: snapshot.endedBy, contentState: snapshot.contentState, dismissalDate: snapshot.dismissalDate,
                    alerts: snapshot.alerts.count
                ))
            if snapshot.endedBy != .push || snapshot.contentState != final {
                problems.append("\(seat.hero.name)'s activity did not end with the final state (\(snapshot.state.rawValue))")
            }
        }
        let log = await simulator.world.pushes(limit: simulator.world.rules.pushLogLimit)
        problems += Self.decodeFailures(in: log)
        let deliveries = reports.flatMap(\.deliveries)
        return DemoSummary(
            seed: adventure.seed, events: reports.count, pushes: deliveries.count,
            applied: deliveries.filter(\.arrived).count, superseded: deliveries.filter(\.superseded).count,
            downgrades: reports.reduce(0) { $0 + $1.downgrades }, alertsShown: heroes.reduce(0) { $0 + $1.alerts },
            staleSeen: reports.contains { $0.staleSeen == true },
            decodeFailures: log.filter { $0.outcome?.kind == .decodeFailure }.count,
            heroes: heroes, problems: problems
        )
    }

    /// What the iPhones dropped although APNs accepted it, each with the decoder's reason: a count alone
    /// would not say which push went wrong.
    static func decodeFailures(in log: [PushLogEntry]) -> [String] {
        log.compactMap { entry in
            guard let outcome = entry.outcome, outcome.kind == .decodeFailure else { return nil }
            let event = entry.payload["aps"]?["event"]?.stringValue ?? "?"
            return "an iPhone could not decode a '\(event)' push (\(entry.apnsID.prefix(8))…): \(outcome.detail ?? "no detail")"
        }
    }

    func pause(_ seconds: TimeInterval) async {
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    }
}
