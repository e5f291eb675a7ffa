import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// An on-call session in headless Chromium, with data that reads like a real server's: an hour of
/// traffic in the history (with an incident of refused tokens), a group send to a raid with one member
/// whose token APNs refuses and one whose activity had ended, a long history, and a broadcast. The send's
/// failed and skipped members are listed with why, and the history is paged. Screenshots of the three
/// views go to $LIVEPUSH_CONSOLE_SCREENSHOTS when it names a folder (docs/ holds the committed ones).
@Suite struct ConsoleSessionBrowserTests {
    /// A generator the test seeds, so that the hour of traffic is the same on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    /// The hour before `now`, written into the store as the delivery workers would have recorded it, a
    /// minute at a time (a test cannot wait an hour): 20 to 45 pushes a minute to `activities`, most
    /// accepted within 40 to 400 ms, and from 25 to 18 minutes ago an incident: tokens refused
    /// (Unregistered, BadDeviceToken) and answers slowed to seconds. The items wait far in the future, so
    /// the server's own workers never claim them.
    static func writeAnHourOfTraffic(_ store: any PushStore, to activities: [String], now: Date) async throws {
        var random = Generator(state: 42)
        let later = now.addingTimeInterval(10 * 365 * 86400)
        for minutesAgo in stride(from: 59, through: 1, by: -1) {
            let recordedAt = now.addingTimeInterval(-Double(minutesAgo) * 60 + 20)
            let incident = (18...25).contains(minutesAgo)
            let count = 20 + Int(12 * (1 + sin(Double(minutesAgo) / 7))) + Int.random(in: 0...6, using: &random)
            var items: [OutboxItem] = []
            var results: [DeliveryResult] = []
            for index in 0..<count {
                // Most within 40 to 150 ms; a tail to 400 ms; during the incident, up to 4 s.
                let spread = Double.random(in: 0...1, using: &random)
                var latency = 0.04 + 0.11 * spread * spread + (spread > 0.97 ? Double.random(in: 0.1...0.3, using: &random) : 0)
                if incident { latency *= Double.random(in: 3...25, using: &random) }
                let item = OutboxItem(
                    target: .activity(id: activities[(minutesAgo * 7 + index) % activities.count]), kind: .update,
                    payload: Data(#"{"aps":{"timestamp":1,"event":"update","content-state":{"hp":1}}}"#.utf8), priority: .immediate,
                    importance: .timeSensitive, acceptedAt: recordedAt.addingTimeInterval(-latency), nextAttemptAt: later)
                items.append(item)
                let refusal: String? =
                    incident && index % 4 == 0
                    ? (index % 8 == 0 ? "BadDeviceToken" : "Unregistered") : (index == 7 && minutesAgo % 9 == 0 ? "TooManyRequests" : nil)
                results.append(
                    DeliveryResult(
                        pushID: item.pushID, outcome: refusal == nil ? .accepted : .rejected, sentAt: recordedAt, apnsID: item.pushID.lowercased,
                        status: refusal == nil ? 200 : refusal == "Unregistered" ? 410 : refusal == "TooManyRequests" ? 429 : 400, reason: refusal,
                        attempts: 1))
            }
            _ = try await store.enqueue(items)
            let claimed = try await store.claim(owner: "history", limit: items.count, now: later, lease: 60)
            #expect(claimed.count == items.count)
            _ = try await store.complete(owner: "history", results: results, at: recordedAt)
        }
    }

    @Test(.chromiumInstalled)
    func anOnCallSessionListsASendsFailedAndSkippedMembersAndPagesALongHistory() async throws {
        try await withSimulatedServer(ServerOptions(store: .sqlite)) { apns, server in
            let http = server.http
            func register(_ id: String, token: String, user: String, groups: [String]) async throws {
                let registered = try await http.post(
                    "/v1/activities", key: TestServer.appKey,
                    registrationJSON(activityID: id, token: token, bundleID: apns.bundleID, groups: groups, userID: user))
                #expect(registered.status == 201, "\(registered.text)")
            }
            // The league's activities, which carried the last hour's traffic.
            var league: [String] = []
            for number in 0..<24 {
                let activity = try await apns.startActivity(contentState: ["hp": 100])
                try await register(activity.id, token: activity.pushToken, user: "player-\(1040 + number)", groups: ["league-week-48"])
                league.append(activity.id)
            }
            try await Self.writeAnHourOfTraffic(server.store, to: league, now: Date())

            // Tonight's raid: Ava, Ben and Chloe on their iPhones; Dev's app registered a token APNs does not
            // know; Eve's activity ended before the raid started.
            var raid: [String: SimulatedActivity] = [:]
            for user in ["ava", "ben", "chloe", "eve"] {
                let activity = try await apns.startActivity(contentState: ["hp": 100])
                try await register(activity.id, token: activity.pushToken, user: user, groups: ["raid-night"])
                raid[user] = activity
            }
            let dev = UUID().uuidString
            try await register(dev, token: IdentityTests.hex(0x5d), user: "dev", groups: ["raid-night"])
            let eve = try #require(raid["eve"])
            let ended = try await http.post("/v1/activities/\(eve.id)/end", key: TestServer.backendKey, #"{"contentState":{"hp":0}}"#)
            #expect(ended.status == 202, "\(ended.text)")
            #expect(await eventually { (try? await apns.snapshot(of: eve).state) == .ended })

            // Ava's adventure: a dozen updates, one at a time.
            let ava = try #require(raid["ava"])
            for hp in stride(from: 95, through: 40, by: -5) {
                let update = try await http.post(
                    "/v1/activities/\(ava.id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)}}"#)
                #expect(update.status == 202, "\(update.text)")
                #expect(await eventually { (try? await apns.contentState(of: ava)["hp"]?.numberValue) == Double(hp) })
            }
            let group = try await http.post("/v1/groups/raid-night/update", key: TestServer.backendKey, #"{"contentState":{"hp":35}}"#)
            let sendID = try #require(group.json?["sendId"]?.stringValue, "\(group.text)")
            #expect(
                await eventually {
                    (try? await http.get("/v1/sends/\(sendID)", key: TestServer.backendKey).json?["state"]?.stringValue) == "finished"
                })
            let channel = try await http.post(
                "/v1/channels", key: TestServer.backendKey, #"{"name":"raid-night-spectators","bundleId":"\#(apns.bundleID)","storagePolicy":0}"#)
            let channelID = try #require(channel.json?["id"]?.stringValue, "\(channel.text)")
            _ = try await http.post("/v1/channels/\(channelID)/update", key: TestServer.backendKey, #"{"contentState":{"hp":35}}"#)

            try await HeadlessChromium.with(width: 1400, height: 1000) { browser in
                #expect(try await ConsoleStatesBrowserTests.signIn(browser, server), "the console signs in")
                #expect(try await browser.waitUntil("document.querySelectorAll('#chart-outcomes rect.bar').length > 50"))
                #expect(try await browser.waitUntil("document.querySelector('#failures tr[data-reason=Unregistered]')"))
                try await Self.keep(browser, "console-overview")

                // Ava's activity: its history ten at a time, newest first.
                try await ConsoleStatesBrowserTests.find(browser, by: "userId", "ava")
                #expect(try await browser.waitUntil("document.getElementById('detail-id').textContent === '\(ava.id)'"))
                #expect(try await browser.waitUntil("document.querySelectorAll('#detail-deliveries tr.delivery').length === 10"))
                let position = try await browser.evaluate("document.querySelector('nav.pager[data-for=detail-deliveries] .position').textContent")
                #expect(position == .string("1–10 of 13"), "twelve updates and the group's")
                _ = try await browser.evaluate("document.querySelector('nav.pager[data-for=detail-deliveries] [data-pager=next]').click(); true")
                #expect(try await browser.waitUntil("document.querySelectorAll('#detail-deliveries tr.delivery').length === 3"))
                // A refresh keeps the page the operator turned to.
                _ = try await browser.evaluate("window.seenStatus = document.getElementById('status').textContent; true")
                #expect(try await browser.waitUntil("document.getElementById('status').textContent !== window.seenStatus"))
                #expect(try await browser.evaluate("document.querySelectorAll('#detail-deliveries tr.delivery').length") == .number(3))
                _ = try await browser.evaluate(
                    "document.querySelector('nav.pager[data-for=detail-deliveries] [data-pager=previous]').click(); true")
                try await browser.submit(
                    "test-push-form", ["test-content": #"{"hp": 35, "note": "checked by on-call"}"#, "test-confirm": ava.id])
                #expect(try await browser.waitUntil("document.querySelector('#detail-deliveries tr[data-from=console][data-outcome=accepted]')"))
                try await Self.keep(browser, "console-activity")

                // The raid's group send: Dev failed (APNs refused the token), Eve was skipped (ended).
                _ = try await browser.evaluate("document.querySelector('[data-view=sends]').click(); true")
                #expect(try await browser.waitUntil("document.querySelector('#send-list tr.send-row[data-send-id=\"\(sendID)\"]')"))
                _ = try await browser.evaluate("document.querySelector('#send-list tr.send-row[data-send-id=\"\(sendID)\"]').click(); true")
                #expect(try await browser.waitUntil("document.querySelectorAll('#send-failed tr.member-row').length === 1"))
                let failed = try await browser.evaluate(
                    "[...document.querySelector('#send-failed tr.member-row').cells].map((c) => c.textContent).join('|')")
                #expect(failed.stringValue?.hasPrefix("\(dev)|rejected|400|BadDeviceToken") == true, "\(failed)")
                let skipped = try await browser.evaluate(
                    "[...document.querySelector('#send-skipped tr.member-row').cells].map((c) => c.textContent).join('|')")
                #expect(skipped.stringValue?.hasPrefix("\(eve.id)|activity '\(eve.id)' is ended") == true, "\(skipped)")
                #expect(try await browser.evaluate("document.getElementById('send-unlisted').textContent") == .string(""))
                #expect(try await browser.waitUntil("document.querySelector('#broadcast-list tr.broadcast-row[data-state=accepted]')"))
                try await Self.keep(browser, "console-sends")
            }
        }
    }

    /// Saves a screenshot when $LIVEPUSH_CONSOLE_SCREENSHOTS names a folder.
    static func keep(_ browser: HeadlessChromium, _ name: String) async throws {
        guard let folder = ProcessInfo.processInfo.environment["LIVEPUSH_CONSOLE_SCREENSHOTS"], !folder.isEmpty else { return }
        try await browser.screenshot().write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name).png"))
    }
}
