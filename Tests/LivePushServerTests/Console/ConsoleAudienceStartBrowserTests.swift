import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// The console's Sends view in headless Chromium against a real server and the simulator: an audience
/// start is listed as "N users" (kind start, no group), and its detail shows the attributes type, the
/// counts by skip reason, and its state moving on to finished while the view refreshes.
@Suite struct ConsoleAudienceStartBrowserTests {
    @Test(.chromiumInstalled)
    func anAudienceStartShowsItsProgress() async throws {
        try await withSimulatedServer(ServerOptions(store: .sqlite)) { sim, server in
            _ = try await AudienceStartTests.addUsers(["ava", "ben"], sim: sim, server: server)
            try await HeadlessChromium.with(width: 1400, height: 900) { browser in
                #expect(try await ConsoleStatesBrowserTests.signIn(browser, server), "the console signs in")
                // Ava and Ben have a token, Cy has none: two sent, one skipped for no token.
                let answer = try await server.http.post(
                    "/v1/starts", key: TestServer.backendKey,
                    AudienceStartTests.body(AudienceStartTests.userList(["ava", "ben", "cy"]), sim: sim))
                #expect(answer.status == 202, "\(answer.text)")
                let sendID = try #require(answer.json?["sendId"]?.stringValue, "\(answer.text)")

                _ = try await browser.evaluate("document.querySelector('[data-view=sends]').click(); true")
                let line = "document.querySelector('#send-list tr.send-row[data-send-id=\"\(sendID)\"]')"
                #expect(try await browser.waitUntil(line))
                let cells = try await browser.evaluate("[...\(line).cells].slice(0, 2).map((c) => c.textContent).join('|')")
                #expect(cells == .string("3 users|start"), "\(cells)")
                _ = try await browser.evaluate("\(line).click(); true")

                // The detail refreshes with the view until every push has its outcome.
                let facts = "document.getElementById('send-facts').textContent"
                #expect(try await browser.waitUntil("!document.getElementById('send-detail').hidden && \(facts).includes('statefinished')"))
                let shown = try await browser.evaluate(facts).stringValue ?? ""
                for fact in [
                    "attributes type\(sim.attributesTypes[0])", "targeted3", "sent2", "skipped: no token1", "skipped: budget0", "failed0",
                ] {
                    #expect(shown.contains(fact), "\(fact) in \(shown)")
                }
                #expect(shown.contains("finishednot yet") == false, "\(shown)")
                #expect(try await browser.evaluate("document.getElementById('send-heading').textContent") == .string("Audience start"))
                #expect(try await browser.evaluate("document.getElementById('send-members').hidden") == .bool(true))
                let title = try await browser.evaluate("document.getElementById('send-title').textContent")
                #expect(title.stringValue?.hasPrefix("start to 3 users") == true, "\(title)")
            }
        }
    }
}
