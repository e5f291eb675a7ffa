import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// The console in headless Chromium against a real server and the simulator: an activity found by its
/// user shows its deliveries, the console's test push arrives on the simulated iPhone, a hostile
/// activity id is shown as text, and the key stays out of every URL. (The screenshots in docs/ come from
/// `ConsoleSessionBrowserTests`, whose data reads like a real server's.)
@Suite struct ConsoleBrowserTests {
    static let hostile = #"<img src=x onerror="window.pwned=1">"#

    @Test(.chromiumInstalled, arguments: TestDatabase.available)
    func anOperatorFindsAUsersActivitySendsATestUpdateAndSeesHostileIdsAsText(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { apns, server in
            let http = server.http
            let activity = try await apns.startActivity(contentState: ["hp": 10])
            for (id, token) in [(activity.id, activity.pushToken), (Self.hostile, IdentityTests.hex(0x66))] {
                let body = JSONValue.object([
                    "activityId": .string(id), "pushToken": .string(token), "bundleId": .string(apns.bundleID),
                    "attributesType": "AdventureAttributes", "environment": "sandbox", "userId": "ava", "groups": ["raid"],
                ])
                let registered = try await http.post("/v1/activities", key: TestServer.appKey, String(decoding: body.serialized(), as: UTF8.self))
                #expect(registered.status == 201, "\(registered.text)")
            }
            // ava's push-to-start token, read from ActivityKit's property: the activity's detail shows where it came from.
            let stored = try await http.put(
                "/v1/push-to-start-tokens", key: TestServer.appKey,
                #"{"userId":"ava","deviceId":"phone","bundleId":"\#(apns.bundleID)","attributesType":"AdventureAttributes","environment":"sandbox","token":"\#(IdentityTests.hex(0x67))","source":"property"}"#
            )
            #expect(stored.status == 200, "\(stored.text)")
            let update = try await http.post("/v1/activities/\(activity.id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":20}}"#)
            #expect(update.status == 202, "\(update.text)")
            #expect(await eventually { (try? await apns.contentState(of: activity)["hp"]?.numberValue) == 20 })
            let group = try await http.post("/v1/groups/raid/update", key: TestServer.backendKey, #"{"contentState":{"hp":30}}"#)
            #expect(group.status == 202, "\(group.text)")
            // A broadcast channel and one broadcast, for the Sends view.
            let channel = try await http.post(
                "/v1/channels", key: TestServer.backendKey, #"{"name":"raid-spectators","bundleId":"\#(apns.bundleID)","storagePolicy":0}"#)
            let channelID = try #require(channel.json?["id"]?.stringValue, "\(channel.text)")
            let broadcast = try await http.post("/v1/channels/\(channelID)/update", key: TestServer.backendKey, #"{"contentState":{"hp":30}}"#)
            #expect(broadcast.status == 202, "\(broadcast.text)")

            try await HeadlessChromium.with(width: 1400, height: 900) { browser in
                try await browser.open(server.url.appendingPathComponent("console").absoluteString)
                // The modules have run (the form's handler is set): a submit before that would do nothing.
                #expect(try await browser.waitUntil("document.body.dataset.ready === 'true'"))
                try await browser.signInAsOperator()
                let live = try await browser.waitUntil(#"document.getElementById('status').dataset.state === 'live'"#)
                let status = try await browser.evaluate(
                    "document.getElementById('status').textContent + ' ' + document.getElementById('sign-in-error').textContent")
                #expect(live, "the overview loads: \(status)")
                #expect(try await browser.waitUntil(#"Number(document.getElementById('rates').dataset.total) > 0"#), "pushes per second move")
                #expect(
                    try await browser.waitUntil("document.querySelector('#instances tbody tr[data-this=true]')"), "this instance is listed")

                // Find by user: both activities, the hostile id as text and nothing of it run.
                try await browser.submit("find-form", ["find-by": "userId", "find-value": "ava"], inView: "activities")
                #expect(try await browser.waitUntil("document.querySelectorAll('#activity-list tr.activity-row').length === 2"))
                let shown = try await browser.evaluate(
                    "JSON.stringify([...document.querySelectorAll('#activity-list tr.activity-row td:first-child')].map((cell) => cell.textContent))"
                )
                #expect(
                    try JSONValue.parse(shown.stringValue ?? "[]").arrayValue?.compactMap(\.stringValue).sorted()
                        == [activity.id, Self.hostile].sorted())
                #expect(try await browser.evaluate("document.querySelectorAll('img').length") == .number(0))
                #expect(try await browser.evaluate("typeof window.pwned") == .string("undefined"))

                // The activity's deliveries: the update and the group send's push, with apns-id and status.
                _ = try await browser.evaluate(
                    "document.querySelector('#activity-list tr.activity-row[data-activity-id=\"\(activity.id)\"]').click(); true")
                #expect(try await browser.waitUntil("document.querySelectorAll('#detail-deliveries tr[data-outcome=accepted]').length === 2"))
                let row = try await browser.evaluate(
                    "[...document.querySelector('#detail-deliveries tr[data-outcome=accepted]').cells].map((cell) => cell.textContent).join('|')")
                let cells = (row.stringValue ?? "").split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                // apns-id, then the apns-unique-id the simulator returns as APNs does in development.
                #expect(
                    cells.count == 11 && cells[2] == "accepted" && cells[3] == "200" && cells[5].count == 36 && cells[6].count == 36, "\(cells)")
                let tokenRow = try await browser.evaluate(
                    "[...document.querySelector('#detail-tokens tbody tr').cells].map((cell) => cell.textContent).join('|')")
                let tokenCells = (tokenRow.stringValue ?? "").split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                #expect(
                    tokenCells.count == 7 && tokenCells[2] == "property" && tokenCells[6] == stored.json?["refreshedAt"]?.stringValue,
                    "\(tokenCells)")
                let facts = try await browser.evaluate("document.getElementById('detail-facts').textContent")
                #expect(facts.stringValue?.contains("token age (since registered or rotated)") == true, "\(facts)")

                // The test update, confirmed, reaches the iPhone and is listed as the console's.
                try await browser.submit("test-push-form", ["test-content": #"{"hp": 99}"#, "test-confirm": activity.id])
                #expect(await eventually { (try? await apns.contentState(of: activity)["hp"]?.numberValue) == 99 })
                #expect(try await browser.waitUntil("document.querySelector('#detail-deliveries tr[data-from=console][data-outcome=accepted]')"))

                // The hostile activity's detail: its id as the heading's text.
                _ = try await browser.evaluate(
                    "document.querySelectorAll('#activity-list tr.activity-row').forEach((row) => { if (row.dataset.activityId.startsWith('<')) row.click(); }); true"
                )
                #expect(
                    try await browser.waitUntil(
                        "document.getElementById('detail-id').textContent === \(String(decoding: JSONValue.string(Self.hostile).serialized(), as: UTF8.self))"
                    ))
                #expect(try await browser.evaluate("document.getElementById('detail-id').children.length") == .number(0))

                _ = try await browser.evaluate("document.querySelector('[data-view=sends]').click(); true")
                #expect(try await browser.waitUntil("document.querySelector('#send-list tr.send-row[data-state=finished] progress')"))
                #expect(
                    try await browser.waitUntil(
                        "document.querySelector('#broadcast-list tr.broadcast-row[data-channel-id=\"\(channelID)\"][data-state=accepted]')"),
                    "the broadcast is listed beside the group sends, sent")

                // The key: in no URL the page loaded or fetched, in no cookie; only in this tab's storage.
                let urls = try await browser.evaluate(
                    "JSON.stringify([location.href, document.cookie, ...performance.getEntriesByType('resource').map((entry) => entry.name)])")
                #expect(!(urls.stringValue ?? TestServer.operatorKey).contains(TestServer.operatorKey))
                #expect((urls.stringValue ?? "").contains("/v1/operator/activities"), "the fetches are listed")
                #expect(try await browser.evaluate("localStorage.length") == .number(0))
            }
        }
    }
}
