import APNsSimulator
import EmojiRangers
import Foundation
import LiveActivity
import LivePushTesting
import Logging
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The whole demo in-process at a fast pace, checked from the simulator's world: what the iPhones show.
@Suite struct DemoEndToEndTests {
    @Test func theWholeAdventureArrivesOnEveryIPhone() async throws {
        var options = DemoOptions()
        options.speed = 50
        options.partySize = 4
        options.seed = 7
        try await withDemo(options) { demo in
            let world = demo.simulator.world
            let url = try #require(URL(string: demo.dashboardURL))
            #expect(url.path == "/dashboard" && url.port == demo.simulator.controlPort)
            let (page, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200 && !page.isEmpty, "the dashboard is served on the control port")
            let events = world.events.subscribe()
            let partySize = options.partySize
            let watcher = Task {
                var seen: [SimulatorEvent.Kind: Int] = [:]
                for await event in events {
                    seen[event.kind, default: 0] += 1
                    if event.kind == .activityEnded, seen[.activityEnded] == partySize { break }
                }
                return seen
            }
            var lines: [String] = []
            var reports: [DemoEventReport] = []
            let summary = try await demo.play { progress in
                lines.append(progress.line)
                if case .event(let report) = progress { reports.append(report) }
            }
            let seen = await watcher.value

            #expect(summary.succeeded, "\(summary.lines.joined(separator: "\n"))")
            #expect(summary.decodeFailures == 0)
            #expect(summary.heroes.count == 4)
            let adventure = try AdventureEngine.plan(party: try HeroRoster.party(size: 4), seed: 7)
            let final = try #require(adventure.events.last?.contentState.jsonValue)
            #expect(
                lines.count == 4 + 1 + 1 + adventure.events.count + 1,
                "a line per player, one for the tokens, one for the spectators, one per event, one for the quest")
            // One hero's quest runs as a Live Activity resource: started by push-to-start, the second PUT
            // queued until the app registered it (or an update when the app was quicker), then updated,
            // the same PUT again sent nothing, and DELETE ended it.
            let quest = try #require(summary.quest)
            #expect(
                quest.steps.first == "PUT started" && quest.steps.dropFirst(2) == ["PUT updated", "PUT unchanged", "DELETE ended"], "\(quest.steps)")
            #expect(["PUT queued", "PUT updated"].contains(quest.steps[1]) && quest.activityIDs.count == 1 && quest.pushes == 4)
            #expect(lines.contains { $0.hasPrefix("quest of 🐼 Power Panda as a resource") }, "\(lines.suffix(2))")
            // Every hero's tokens reached the server through the app's LivePushKit reporter: its adventure and
            // side quest tokens and its push-to-start token, from the reporters' journals (and, after the
            // adventure, the quest's token from the app that registered it).
            #expect(
                lines.contains(
                    "the apps' LivePushKit reporters uploaded 8 activity tokens and 4 push-to-start tokens (POST /v1/activities, PUT /v1/push-to-start-tokens)"
                ), "\(lines.prefix(6))")
            let tokens = try #require(summary.tokens)
            #expect(tokens.apps == 4 && tokens.activityTokens == 9 && tokens.pushToStartTokens == 4, "\(tokens)")
            #expect(tokens.pending == 0 && tokens.refused == 0, "\(tokens)")
            #expect(
                summary.lines.contains("  tokens: 9 activity + 4 push-to-start tokens uploaded by LivePushKit (4 iPhones), 0 pending, 0 failed"),
                "\(summary.lines.joined(separator: "\n"))")
            // Each app keeps its own journal under the demo's folder, where it ends with nothing owed.
            for hero in try HeroRoster.party(size: 4) {
                let journal = URL(fileURLWithPath: demo.dataDirectory).appendingPathComponent("iphones/\(hero.id)/LivePushKit-journal.json")
                #expect(FileManager.default.fileExists(atPath: journal.path), "\(journal.path)")
            }
            // Every event reached every spectator by one broadcast.
            let spectators = DemoOptions().spectators
            #expect(summary.spectators == spectators && spectators > 0)
            #expect(summary.spectatorsReached == Array(repeating: spectators, count: adventure.events.count), "\(summary.spectatorsReached)")
            // The spectators' activities were started by one audience start joined to the channel, as the send's
            // counts (GET /v1/sends/{id}) and the iPhones say.
            let start = try #require(summary.spectatorStart)
            #expect(start.finished && start.targeted == spectators && start.sent == spectators, "\(start)")
            #expect(start.skipped == 0 && start.failed == 0 && start.joined == spectators, "\(start)")
            #expect(summary.lines.contains("  spectators' activities: " + start.line), "\(summary.lines.joined(separator: "\n"))")
            #expect(
                lines.contains {
                    $0.hasPrefix("\(spectators) spectators follow the party")
                        && $0.hasSuffix(
                            "1 audience start (POST /v1/starts with inputPushChannel → \(spectators) sent) started the activity on \(spectators) iPhones"
                        )
                }, "\(lines.prefix(7))")
            // The party's health is said once, not under every hero (each activity shows the same state).
            let summaryText = summary.lines.joined(separator: "\n")
            #expect(summary.lines.filter { $0.contains("health") }.count == 1, "\(summaryText)")
            #expect(summary.lines.contains("  the party's activities show: \(DemoSummary.describe(final))"), "\(summaryText)")

            var alerts: [AlertRecord] = []
            let all = await world.allDevices()
            // One iPhone per spectator, with the one activity the audience start began, subscribed to the channel
            // and ended by its last broadcast.
            let stands = all.filter { $0.name.hasPrefix("Spectator ") }
            #expect(stands.count == spectators, "an iPhone per spectator")
            let channels = Set(stands.flatMap { $0.activities.map(\.channelID) })
            #expect(channels.count == 1 && channels.first??.isEmpty == false, "every spectator's activity follows the one channel: \(channels)")
            #expect(stands.allSatisfy { $0.activities.count == 1 }, "one activity on each spectator's iPhone")
            #expect(stands.allSatisfy { $0.activities.first?.history.first?.outcome.kind == .started }, "started by push-to-start")
            #expect(stands.allSatisfy { $0.activities.first?.contentState == final && $0.activities.first?.state == .ended })
            let devices = all.filter { !$0.name.hasPrefix("Spectator ") }
            #expect(devices.count == 4)
            for device in devices {
                // The quest's activity (ended, on one iPhone) is checked above through the summary.
                let activities = device.activities.filter { $0.attributes["livePushKey"] == nil }
                #expect(activities.count == 2, "the party adventure and the side quest")
                let activity = try #require(activities.first { $0.attributesType == EmojiRangersDemo.attributesType })
                let sideQuest = try #require(activities.first { $0.attributesType == SideQuest.attributesType })
                #expect(sideQuest.state == .active && sideQuest.history.isEmpty)
                #expect(activities.first?.activityID == sideQuest.activityID, "relevance 75 beats the calm adventure's 50")
                #expect(activity.state == .ended, "\(device.name): \(activity.state)")
                #expect(activity.endedBy == .push)
                #expect(activity.contentState == final)
                #expect(activity.dismissalDate != nil)
                #expect(activity.history.allSatisfy { $0.outcome.kind == .applied }, "\(activity.history.map(\.outcome))")
                alerts += activity.alerts
            }
            #expect(
                alerts.contains {
                    $0.title == "Power Panda is knocked down!" && $0.body == "Use a potion to heal Power Panda!" && $0.sound == "HeroDown.mp4"
                }, "\(alerts.map { "\($0.title ?? "") / \($0.body ?? "")" })")
            #expect(seen[.activityStale, default: 0] >= 1, "a hero's activity was seen stale")
            let relevanceChecks = reports.filter { $0.lockScreensFollowRelevance != nil }
            #expect(
                relevanceChecks.map(\.event.relevanceScore) == [100, 50], "the boss fight raised the adventure's relevance, the spoils lowered it")
            #expect(relevanceChecks.allSatisfy { $0.lockScreensFollowRelevance == true })
            #expect(reports.filter { $0.staleSeen != nil }.map(\.event.kind) == [.connectionLost])
            #expect(seen[.decodeFailure, default: 0] == 0)
            let everything = await world.pushes(limit: 1000)
            let log = everything.filter { $0.path.hasPrefix("/3/device/") }
            #expect(everything.filter { $0.path.hasPrefix("/4/broadcasts/") }.count == adventure.events.count, "one broadcast per event")
            #expect(log.count == summary.pushes + quest.pushes + spectators)
            #expect(log.allSatisfy { $0.status == 200 && ($0.outcome?.kind == .applied || $0.outcome?.kind == .started) })
            #expect(log.filter { $0.outcome?.kind == .started }.count == 1 + spectators, "the quest's push-to-start and the spectators'")
            #expect(log.contains { $0.headers.contains { $0.name == "apns-priority" && $0.value == "10" } })
        }
    }

    @Test func aPushThatDoesNotArriveFailsTheRun() async throws {
        var options = DemoOptions()
        options.speed = 200
        options.partySize = 3
        options.seed = 11
        options.spectators = 0  // the fault below refuses every request, channel creation included
        try await withDemo(options) { demo in
            try demo.simulator.faults.add(FaultRule(status: 400, reason: "BadTopic", share: 1))
            var reports: [DemoEventReport] = []
            let summary = try await demo.play { progress in
                if case .event(let report) = progress { reports.append(report) }
            }
            #expect(!summary.succeeded)
            #expect(summary.applied == 0)
            #expect(!summary.staleSeen)
            #expect(reports.allSatisfy { !$0.problems.isEmpty })
            // The apps' tokens still reached the server: the fault is between the server and APNs.
            #expect(
                summary.tokens
                    == {
                        var tokens = DemoTokens(apps: 3)
                        tokens.activityTokens = 6
                        tokens.pushToStartTokens = 3
                        return tokens
                    }())
            #expect(reports.first?.line.contains("✗ Power Panda: server rejected, device nothing") == true, "\(reports.first?.line ?? "")")
            #expect(summary.lines.contains("Problems:"))
        }
    }

    @Test func aTakenPortNamesThePartThatDidNotStart() async throws {
        try await withDemo(DemoOptions()) { demo in
            var options = DemoOptions()
            options.apnsPort = try #require(demo.simulator.apnsPort)
            var logger = Logger(label: "emoji-rangers.test")
            logger.logLevel = .critical
            do {
                let second = try await EmojiRangersDemo.start(options: options, logger: logger)
                await second.shutdown()
                Issue.record("a second demo started on the first one's APNs port")
            } catch {
                #expect("\(error)".hasPrefix("the simulator did not start: "), "\(error)")
            }
        }
    }

    @Test func badOptionsNameTheOption() {
        var options = DemoOptions()
        options.partySize = 5
        #expect(throws: DemoError.self) { try options.validate() }
        do {
            try options.validate()
        } catch {
            #expect(error.description.contains("--party-size"))
        }
        options.partySize = 3
        options.speed = 0
        #expect(throws: DemoError.self) { try options.validate() }
        options.speed = 1
        options.serverPort = 70000
        do {
            try options.validate()
            Issue.record("port 70000 was accepted")
        } catch {
            #expect(error.description.contains("--server-port"))
        }
        // One audience start takes 10,000 user ids: so many spectators at most.
        options.serverPort = 0
        options.spectators = 10_001
        do {
            try options.validate()
            Issue.record("10,001 spectators were accepted")
        } catch {
            #expect(error.description.contains("--spectators") && error.description.contains("10000"), "\(error)")
        }
    }
}

/// No silent drops in the demo: the players' LivePushKit reporters send the adventure's ContentState shape, and
/// the one update the engine gets wrong on purpose is refused by the server, naming the field, and never
/// reaches an iPhone (none of them drops anything).
@Suite struct DemoWrongContentStateTests {
    @Test func theMisspeltUpdateIsRefusedAndNoIPhoneDropsAnything() async throws {
        var options = DemoOptions()
        options.speed = 50
        options.partySize = 3
        options.spectators = 0
        options.wrongContentState = true
        try await withDemo(options) { demo in
            var lines: [String] = []
            let summary = try await demo.play { progress in lines.append(progress.line) }
            #expect(summary.succeeded, "\(summary.lines.joined(separator: "\n"))")
            let refused = try #require(lines.first { $0.contains("misspelt content-state") }, "\(lines)")
            #expect(refused.hasPrefix("✓") && refused.contains("422") && refused.contains("currentHealthLevel: missing"), "\(refused)")
            #expect(summary.decodeFailures == 0, "no iPhone got the misspelt update")
        }
    }
}
