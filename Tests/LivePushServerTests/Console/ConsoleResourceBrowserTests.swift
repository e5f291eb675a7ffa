import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// The console's "By key" view in headless Chromium against a real server: a key nobody used is named in
/// the view's error; a Live Activity kept by key shows its state, reason and history, rendered as text.
@Suite struct ConsoleResourceBrowserTests {
    /// Opens the "By key" view and looks up `user` and `key`.
    static func show(_ browser: HeadlessChromium, user: String, key: String) async throws {
        try await browser.submit("resource-form", ["resource-user": user, "resource-key": key], inView: "resources")
    }

    @Test(.chromiumInstalled)
    func aKeyShowsItsStateAndHistoryAndAnUnknownKeyIsNamed() async throws {
        try await withSimulatedServer(ServerOptions(store: .sqlite)) { apns, server in
            // The user has no push-to-start token: the PUT is refused, and the refusal is kept under the key.
            let refused = try await server.http.put(
                "/v1/users/ava/live-activities/order-7", key: TestServer.backendKey,
                #"{"attributesType":"OrderAttributes","attributes":{"order":"<b>7</b>"},"contentState":{"step":"baking"},"alert":{"title":"Baking"}}"#
            )
            #expect(refused.status == 200 && refused.json?["outcome"] == "refused", "\(refused.text)")
            try await HeadlessChromium.with(width: 1400, height: 900) { browser in
                #expect(try await ConsoleStatesBrowserTests.signIn(browser, server), "the console signs in")

                try await Self.show(browser, user: "ava", key: "no-such-key")
                #expect(try await browser.waitUntil("document.getElementById('resource-error').textContent.includes('no-such-key')"))
                #expect(try await browser.evaluate("document.getElementById('resource-detail').hidden") == .bool(true))

                try await Self.show(browser, user: "ava", key: "order-7")
                #expect(try await browser.waitUntil("!document.getElementById('resource-detail').hidden"))
                #expect(try await browser.evaluate("document.getElementById('resource-error').textContent") == .string(""))
                let facts = try await browser.evaluate("document.getElementById('resource-facts').textContent")
                #expect(facts.stringValue?.contains("refused (noPushToStartToken)") == true, "\(facts)")
                #expect(facts.stringValue?.contains("OrderAttributes") == true, "\(facts)")
                let outcomes = try await browser.evaluate(
                    "[...document.querySelectorAll('#resource-history tbody tr')].map((row) => row.dataset.outcome).join(',')")
                #expect(outcomes == .string("refused"))
                // The attributes' markup is text, not elements.
                #expect(try await browser.evaluate("document.querySelectorAll('#resource-facts b').length") == .number(0))
            }
        }
    }
}
