import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The console is live, in headless Chromium against a real server and the simulator (both stores): it
/// polls while its tab is visible, makes no request while the tab is hidden (another tab in front of
/// it), and polls again when shown; and its views move while a 10,000-member group send runs.
@Suite struct ConsoleLiveTests {
    /// The page's requests to the operator routes, counted as they start (`fetch` is wrapped before
    /// the console signs in; the console calls the global `fetch` at each request).
    static let countRequests = """
        window.operatorRequests = 0;
        const original = window.fetch.bind(window);
        window.fetch = (input, init) => {
          if (String(input).startsWith('/v1/operator/')) window.operatorRequests += 1;
          return original(input, init);
        };
        true
        """

    @Test(.chromiumInstalled, arguments: TestDatabase.available)
    func pollingStopsWhileTheTabIsHiddenAndResumesWhenShown(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { apns, server in
            try await HeadlessChromium.with { browser in
                try await Self.signIn(browser, server)
                let count = "window.operatorRequests"
                let visible = try #require(try await browser.evaluate(count).numberValue)
                #expect(try await browser.waitUntil("\(count) >= \(visible + 2)"), "the overview is polled while the tab is visible")

                try await browser.hidePage()
                // 'paused': hidden, no request in flight and none scheduled.
                #expect(
                    try await browser.waitUntil(
                        "document.visibilityState === 'hidden' && document.getElementById('status').dataset.state === 'paused'"))
                let hidden = try #require(try await browser.evaluate(count).numberValue)
                // Three polling intervals (2 s each) hidden: a poller that ignored the tab's state
                // would have made three requests.
                try await Task.sleep(for: .seconds(6))
                #expect(try await browser.evaluate(count).numberValue == hidden, "no request while the tab is hidden")
                #expect(try await browser.evaluate("document.getElementById('status').dataset.state") == .string("paused"))

                try await browser.showPage()
                #expect(try await browser.waitUntil("document.visibilityState === 'visible'"))
                #expect(try await browser.waitUntil("\(count) >= \(hidden + 2)"), "polling resumes when the tab is shown")
                #expect(try await browser.waitUntil("document.getElementById('status').dataset.state === 'live'"))
            }
        }
    }

    /// 10,000 members of one group, one send to all of them (every push waits 5 ms in the simulator, so
    /// the send lasts long enough to be seen running): the Group sends view shows its progress bar
    /// moving between two reads, and the overview's pushes per second and backlog move with it.
    @Test(
        .enabled(if: HeavyTests.isEnabled, HeavyTests.skipped),
        .chromiumInstalled,
        arguments: TestDatabase.available)
    func theViewsMoveWhileATenThousandMemberGroupSendRuns(database: TestStore) async throws {
        let members = 10_000
        try await withSimulatedServer(ServerOptions(store: database), simulator: SimulatorOptions(acceptUnknownTokens: true)) { apns, server in
            try await Self.register(members, group: "arena", bundleID: apns.bundleID, in: server.store)
            try apns.simulator.faults.add(FaultRule(share: 1, latencyMilliseconds: 5))
            try await HeadlessChromium.with { browser in
                try await Self.signIn(browser, server)
                _ = try await browser.evaluate("document.querySelector('[data-view=sends]').click(); true")
                let send = try await server.http.post("/v1/groups/arena/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
                #expect(send.status == 202, "\(send.text)")
                let sendID = try #require(send.json?["sendId"]?.stringValue)
                let bar = "document.querySelector('#send-list tr.send-row[data-send-id=\"\(sendID)\"] progress')"

                // Two reads of the bar while the send runs: the second is further along.
                #expect(try await browser.waitUntil("\(bar) && \(bar).value > 0 && \(bar).value < \(members)", seconds: 120))
                let first = try #require(try await browser.evaluate("\(bar).value").numberValue)
                #expect(try await browser.waitUntil("\(bar).value > \(first)", seconds: 120), "the progress bar moves")

                // The overview while it runs (or just after): deliveries per second rise between reads.
                _ = try await browser.evaluate("document.querySelector('[data-view=overview]').click(); true")
                #expect(try await browser.waitUntil("Number(document.getElementById('rates').dataset.total) > 0"))
                let rate = try #require(try await browser.evaluate("Number(document.getElementById('rates').dataset.total)").numberValue)
                #expect(
                    try await browser.waitUntil("Number(document.getElementById('rates').dataset.total) > \(rate)", seconds: 120),
                    "pushes per second move")

                // The send ends with every member sent, as the view shows.
                _ = try await browser.evaluate("document.querySelector('[data-view=sends]').click(); true")
                #expect(
                    try await browser.waitUntil("\(bar) && \(bar).value === \(members) && \(bar).max === \(members)", seconds: 300),
                    "the send finishes with every member")
                let state = "document.querySelector('#send-list tr.send-row[data-send-id=\"\(sendID)\"]').dataset.state"
                #expect(try await browser.waitUntil("\(state) === 'finished'"))
            }
        }
    }

    /// Opens the console, wraps `fetch` to count its requests, signs in with the operator key and waits
    /// for the overview.
    static func signIn(_ browser: HeadlessChromium, _ server: TestServer) async throws {
        try await browser.open(server.url.appendingPathComponent("console").absoluteString)
        #expect(try await browser.waitUntil("document.body.dataset.ready === 'true'"))
        _ = try await browser.evaluate(countRequests)
        try await browser.signInAsOperator()
        #expect(try await browser.waitUntil("document.getElementById('status').dataset.state === 'live'"), "the overview loads")
    }

    /// Registers `count` activities of one group straight in the store, eight at a time.
    static func register(_ count: Int, group: String, bundleID: String, in store: any PushStore) async throws {
        let at = Date()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for lane in 0..<8 {
                tasks.addTask {
                    for index in stride(from: lane, to: count, by: 8) {
                        _ = try await store.register(
                            ActivityRegistration(
                                activityID: String(format: "member-%05d", index),
                                pushToken: try DeviceToken(hex: String(format: "%064x", 0xA000_0000 + index)),
                                bundleID: bundleID, attributesType: "AdventureAttributes", environment: .sandbox, groups: [group], at: at))
                    }
                }
            }
            try await tasks.waitForAll()
        }
    }
}
