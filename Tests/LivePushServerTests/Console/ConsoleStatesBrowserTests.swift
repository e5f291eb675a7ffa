import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// The console's states in headless Chromium against a real server and the simulator: what it says when
/// a list is empty (in words, never bare table headers), an error in the header that goes with the next
/// request that succeeds, and the charts of the last hour once pushes have gone out.
@Suite struct ConsoleStatesBrowserTests {
    /// The sentence shown instead of the table `id` when the table is hidden for having no rows; '' otherwise.
    static func emptyText(_ id: String) -> String {
        """
        (() => { const table = document.getElementById('\(id)'); const note = table.nextElementSibling;
          return table.hidden && note && note.classList.contains('empty') && !note.hidden ? note.textContent : ''; })()
        """
    }

    /// Opens the console and signs in with the server's development operator key; true once it is live.
    static func signIn(_ browser: HeadlessChromium, _ server: TestServer) async throws -> Bool {
        try await browser.open(server.url.appendingPathComponent("console").absoluteString)
        guard try await browser.waitUntil("document.body.dataset.ready === 'true'") else { return false }
        try await browser.signInAsOperator()
        return try await browser.waitUntil("document.getElementById('status').dataset.state === 'live'")
    }

    /// Submits the Activities view's search.
    static func find(_ browser: HeadlessChromium, by: String, _ value: String) async throws {
        try await browser.submit("find-form", ["find-by": by, "find-value": value], inView: "activities")
    }

    @Test(.chromiumInstalled)
    func emptyListsSaySoAnErrorGoesWithTheNextSuccessAndTheChartsDrawTheHour() async throws {
        try await withSimulatedServer(ServerOptions(store: .sqlite)) { apns, server in
            let http = server.http
            try await HeadlessChromium.with(width: 1400, height: 900) { browser in
                #expect(try await Self.signIn(browser, server), "the console signs in")

                // A new server: every list says in words that it is empty; the charts say there is nothing yet.
                #expect(try await browser.waitUntil("\(Self.emptyText("failures")).startsWith('No push was refused')"))
                #expect(try await browser.waitUntil("\(Self.emptyText("channels")).startsWith('No broadcast channel')"))
                #expect(try await browser.waitUntil("!document.getElementById('charts-empty').hidden"))
                #expect(try await browser.evaluate("document.getElementById('figure-outcomes').hidden") == .bool(true))
                try await Self.find(browser, by: "userId", "nobody")
                #expect(try await browser.waitUntil("\(Self.emptyText("activity-list")) === \"No activity of user 'nobody'.\""))
                try await Self.find(browser, by: "activityId", "")
                #expect(try await browser.waitUntil("\(Self.emptyText("activity-list")).startsWith('No activity is registered')"))
                _ = try await browser.evaluate("document.querySelector('[data-view=sends]').click(); true")
                #expect(try await browser.waitUntil("\(Self.emptyText("send-list")).startsWith('No send yet')"))
                #expect(try await browser.waitUntil("\(Self.emptyText("broadcast-list")).startsWith('No broadcast channel')"))
                // No visible table is a bare header.
                let bare = try await browser.evaluate(
                    "[...document.querySelectorAll('table')].filter((t) => t.getClientRects().length > 0 && t.tBodies[0].rows.length === 0).length"
                )
                #expect(bare == .number(0))

                // Ava's activity, found by her user id (one match: its detail opens), with two updates delivered.
                let first = try await apns.startActivity(contentState: ["hp": 10])
                let registered = try await http.post(
                    "/v1/activities", key: TestServer.appKey,
                    registrationJSON(activityID: first.id, token: first.pushToken, bundleID: apns.bundleID, userID: "ava"))
                #expect(registered.status == 201, "\(registered.text)")
                for hp in [20, 30] {
                    let update = try await http.post(
                        "/v1/activities/\(first.id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)}}"#)
                    #expect(update.status == 202, "\(update.text)")
                    #expect(await eventually { (try? await apns.contentState(of: first)["hp"]?.numberValue) == Double(hp) })
                }
                try await Self.find(browser, by: "userId", "ava")
                #expect(try await browser.waitUntil("document.getElementById('detail-id').textContent === '\(first.id)'"))

                // The activity is forgotten under the console's eyes: refreshing its detail fails, in the header.
                _ = try await server.store.markEnded(activityID: first.id, at: Date(), dismissalDate: nil)
                #expect(try await server.store.forgetEnded(before: Date().addingTimeInterval(60)) == 1)
                #expect(try await browser.waitUntil("document.getElementById('status').dataset.state === 'error'"))
                let error = try await browser.evaluate("document.getElementById('status').textContent")
                #expect(error.stringValue?.contains(first.id) == true, "\(error)")

                // The next search succeeds: the error goes, and stays gone.
                let second = try await apns.startActivity(contentState: ["hp": 50])
                for activity in [second, try await apns.startActivity(contentState: ["hp": 60])] {
                    let again = try await http.post(
                        "/v1/activities", key: TestServer.appKey,
                        registrationJSON(activityID: activity.id, token: activity.pushToken, bundleID: apns.bundleID, userID: "ava"))
                    #expect(again.status == 201, "\(again.text)")
                }
                try await Self.find(browser, by: "userId", "ava")
                #expect(try await browser.waitUntil("document.querySelectorAll('#activity-list tr.activity-row').length === 2"))
                #expect(try await browser.waitUntil("document.getElementById('status').dataset.state === 'live'"), "the error is cleared")
                // A refresh later (the status shows its time), still no error.
                _ = try await browser.evaluate("window.seenStatus = document.getElementById('status').textContent; true")
                #expect(try await browser.waitUntil("document.getElementById('status').textContent !== window.seenStatus"))
                #expect(try await browser.evaluate("document.getElementById('status').dataset.state") == .string("live"))
                #expect(try await browser.evaluate("document.getElementById('find-error').textContent") == .string(""))

                // The charts: two updates (the first activity's went with its history), drawn as bars, and their
                // latency as points of the p50 and p99 lines.
                for hp in [55, 45] {
                    let update = try await http.post(
                        "/v1/activities/\(second.id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)}}"#)
                    #expect(update.status == 202, "\(update.text)")
                    #expect(await eventually { (try? await apns.contentState(of: second)["hp"]?.numberValue) == Double(hp) })
                }
                _ = try await browser.evaluate("document.querySelector('[data-view=overview]').click(); true")
                #expect(try await browser.waitUntil("document.querySelectorAll('#chart-outcomes rect.bar[data-outcome=accepted]').length > 0"))
                #expect(try await browser.evaluate("document.getElementById('charts-empty').hidden") == .bool(true))
                #expect(
                    try await browser.evaluate("document.querySelectorAll('#chart-latency [data-line=p50] circle').length > 0") == .bool(true))
                #expect(
                    try await browser.evaluate("document.querySelectorAll('#chart-latency [data-line=p99] circle').length > 0") == .bool(true))
                let summary = try await browser.evaluate("document.getElementById('outcomes-summary').textContent")
                #expect(summary.stringValue?.hasPrefix("2 pushes in the last hour: 2 accepted") == true, "\(summary)")
                let labels = try await browser.evaluate("document.querySelectorAll('#chart-outcomes .grid text').length")
                #expect((labels.numberValue ?? 0) >= 9, "the axis has its counts and a time every 10 minutes: \(labels)")
            }
        }
    }
}
