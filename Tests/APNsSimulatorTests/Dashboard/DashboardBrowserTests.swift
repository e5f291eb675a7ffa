import APNsCore
import Foundation
import LiveActivity
import LivePushTesting
import Testing

@testable import APNsSimulator

/// The dashboard in a real headless Chromium: an Emoji Rangers adventure is played through the simulator's
/// APNs endpoint while the page is open, and the test reads what a person sees on the page.
/// Set LIVEPUSH_DASHBOARD_SCREENSHOT=<path> to keep the screenshot (docs/dashboard.png is made this way).
@Suite(.serialized, .exclusive) struct DashboardBrowserTests {
    @Test(.chromiumInstalled)
    func dashboardFollowsAnAdventureLive() async throws {
        try await withDashboardScene { scene in
            let world = scene.world
            try await world.registerApp(
                AppRegistration(
                    bundleID: DashboardScene.bundleID, environment: "sandbox",
                    localizations: ["%@ is knocked down!": "%@ is knocked down!", "Use a potion to heal %@!": "Use a potion to heal %@!"]))
            let ava = try await world.addDevice(DeviceRegistration(name: "Ava's iPhone", bundleID: DashboardScene.bundleID, environment: "sandbox"))
            let ben = try await world.addDevice(DeviceRegistration(name: "Ben's iPhone", bundleID: DashboardScene.bundleID, environment: "sandbox"))
            func adventure(_ hero: String, health: Double, _ event: String, relevance: Double, on device: DeviceCreated) async throws
                -> ActivityCreated
            {
                try await world.startActivity(
                    deviceID: device.deviceID,
                    ActivityRequest(
                        attributesType: "AdventureAttributes", attributes: ["hero": .string(hero)],
                        contentState: ["currentHealthLevel": .number(health), "eventDescription": .string(event)],
                        relevanceScore: relevance))
            }
            let panda = try await adventure("Power Panda", health: 1.0, "Ready for adventure", relevance: 50, on: ava)
            let spouty = try await adventure("Spouty", health: 0.8, "Exploring the caves", relevance: 100, on: ava)
            let spider = try await adventure("Red Spider", health: 0.7, "Went home early", relevance: 10, on: ava)
            _ = try await world.endActivity(activityID: spider.activityID, immediate: true)
            let cat = try await adventure("Cosmic Cat", health: 0.9, "Facing the boss", relevance: 20, on: ben)
            let score = try await world.startActivity(
                deviceID: ben.deviceID,
                ActivityRequest(
                    attributesType: "GameAttributes", attributes: ["title": "Giants vs Dodgers"],
                    contentState: ["score": "3 : 2", "inning": 7]))

            try await HeadlessChromium.with { browser in
                try await browser.open(scene.dashboardURL)

                // What the page shows from the GET routes, once it follows the event stream.
                #expect(
                    try await browser.waitUntil(
                        #"document.querySelector('#connection[data-state="live"]') && document.querySelectorAll('article.phone').length === 2"#))
                var page = try await Self.whatAPersonSees(browser)
                #expect(page["devices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Ava's iPhone", "Ben's iPhone"])
                #expect(Self.activity(panda.activityID, in: page)?["title"] == "Power Panda")
                #expect(Self.activity(panda.activityID, in: page)?["health"] == "100")
                #expect(Self.activity(panda.activityID, in: page)?["event"] == "Ready for adventure")
                #expect(Self.order(ava.deviceID, in: page) == [spouty.activityID, panda.activityID, spider.activityID])
                #expect(Self.activity(spider.activityID, in: page)?["badge"]?.stringValue?.lowercased() == "dismissed")
                #expect(Self.activity(spider.activityID, in: page)?["state"] == "dismissed")
                #expect(Self.activity(score.activityID, in: page)?["title"] == "Giants vs Dodgers")
                let keyValues = Self.activity(score.activityID, in: page)?["keyValues"]?.stringValue ?? ""
                #expect(keyValues.contains("inning") && keyValues.contains("7") && keyValues.contains("score") && keyValues.contains("3 : 2"))
                #expect(Self.activity(score.activityID, in: page)?["health"] == .null)
                #expect(page["connectionText"]?.stringValue?.hasPrefix("Live") == true)

                // The adventure, pushed through the APNs endpoint while the page is open.
                let now = Date().timeIntervalSince1970.rounded(.down)
                let knockedDown = try await scene.pushAdventure(
                    to: panda.pushToken, priority: 10, at: now, health: 0.4, "Power Panda is knocked down!",
                    extra: [
                        "relevance-score": 200,
                        "alert": [
                            "title": ["loc-key": "%@ is knocked down!", "loc-args": ["Power Panda"]],
                            "body": ["loc-key": "Use a potion to heal %@!", "loc-args": ["Power Panda"]],
                            "sound": "HeroDown.caf",
                        ],
                    ])
                #expect(knockedDown.status == 200)
                #expect(
                    try await browser.waitUntil(
                        #"[...document.querySelectorAll('.banner')].some(b => b.innerText.includes('Power Panda is knocked down!') && b.innerText.includes('Use a potion to heal Power Panda!') && b.innerText.includes('HeroDown.caf'))"#
                    ),
                    "the alert shows as a banner")
                #expect(try await browser.evaluate("document.querySelector('.banners').getAttribute('aria-live')") == "polite")

                try await scene.pushAdventure(to: panda.pushToken, priority: 5, at: now + 1, health: "low", "Broken update")
                try await scene.pushAdventure(
                    to: spouty.pushToken, priority: 5, at: now + 2, health: 0.8, "Spouty lost connection", extra: ["stale-date": .number(now - 60)])
                try await scene.pushAdventure(
                    "end", to: cat.pushToken, priority: 10, at: now + 3, health: 0.65, "The boss is defeated!",
                    extra: ["dismissal-date": .number(now + 3600)])
                let unknown = try await scene.push(
                    to: String(repeating: "ab", count: 32), priority: 10,
                    aps: [
                        "event": "update", "timestamp": .number(now + 4), "content-state": [:],
                    ])
                #expect(unknown.status == 400)
                #expect(try await scene.waitForLog(count: 5).count == 5)
                let cake = try await adventure("Captain Cake", health: 1.0, "Joins the party", relevance: 30, on: ben)

                #expect(
                    try await browser.waitUntil(
                        """
                        document.querySelectorAll('#push-log-rows tr.log-row').length === 5
                        && document.querySelector('li[data-activity-id="\(spouty.activityID)"]')?.dataset.state === 'stale'
                        && document.querySelector('li[data-activity-id="\(cat.activityID)"]')?.dataset.state === 'ended'
                        && document.querySelector('li[data-activity-id="\(panda.activityID)"] .health-bar')?.getAttribute('aria-valuenow') === '40'
                        && document.querySelector('li[data-activity-id="\(cake.activityID)"]') !== null
                        """), "the page applies the live events")
                page = try await Self.whatAPersonSees(browser)

                let pandaNow = try #require(Self.activity(panda.activityID, in: page))
                #expect(pandaNow["health"] == "40")
                #expect(pandaNow["width"] == "40%")
                #expect(pandaNow["healthText"] == "40%")
                #expect(pandaNow["event"] == "Power Panda is knocked down!")
                #expect(
                    pandaNow["alerts"]?.arrayValue?.first?.stringValue?.contains(
                        "Power Panda is knocked down! — Use a potion to heal Power Panda! 🔊 HeroDown.caf") == true)
                #expect(Self.order(ava.deviceID, in: page) == [panda.activityID, spouty.activityID, spider.activityID], "ordered by relevance")
                let spoutyNow = try #require(Self.activity(spouty.activityID, in: page))
                #expect(spoutyNow["badge"]?.stringValue?.lowercased() == "stale")
                #expect(spoutyNow["event"] == "Spouty lost connection")
                let catNow = try #require(Self.activity(cat.activityID, in: page))
                #expect(catNow["badge"]?.stringValue?.lowercased() == "ended")
                #expect(catNow["final"] == true)
                #expect(catNow["event"] == "The boss is defeated!")
                #expect(catNow["health"] == "65")
                #expect(
                    Self.order(ben.deviceID, in: page) == [cake.activityID, cat.activityID, score.activityID], "a new activity appears, by relevance")

                let log = try #require(page["log"]?.arrayValue)
                #expect(log.count == 5)
                let rejected = try #require(log.first, "newest first")
                #expect(rejected["status"]?.stringValue?.contains("400") == true)
                #expect(rejected["status"]?.stringValue?.contains("BadDeviceToken") == true)
                #expect(rejected["token"] == "abab…abab")
                #expect(rejected["outcome"] == "not delivered")
                let applied = try #require(log.last)
                #expect(applied["status"] == "200")
                #expect(applied["outcome"] == "applied")
                #expect(applied["headers"]?.stringValue?.contains("liveactivity") == true)
                #expect(applied["headers"]?.stringValue?.contains("priority 10") == true)
                #expect(applied["headers"]?.stringValue?.contains(DashboardScene.topic) == true)
                #expect(applied["token"]?.stringValue == DeviceToken.shorten(panda.pushToken))
                let failure = try #require(log.first { $0["outcome"] == "decode failure" })
                #expect(failure["detail"]?.stringValue?.contains("currentHealthLevel") == true)
                #expect(failure["headers"]?.stringValue?.contains("priority 5") == true)

                let screenshot = try await browser.screenshot()
                #expect(screenshot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
                if let path = ProcessInfo.processInfo.environment["LIVEPUSH_DASHBOARD_SCREENSHOT"] {
                    try screenshot.write(to: URL(fileURLWithPath: path))
                }

                // The banner fades; the alert stays in the activity's history.
                #expect(try await browser.waitUntil("document.querySelectorAll('.banner').length === 0"), "the banner fades")
                #expect(try await browser.waitUntil(#"document.querySelector('.alert-entry')?.innerText.includes('Power Panda is knocked down!')"#))

                // The event stream drops: the indicator says so and the page keeps what it showed.
                // What this test is about, not teardown: the simulator goes away under the page.
                await scene.simulator.shutdown()
                #expect(
                    try await browser.waitUntil(
                        #"document.querySelector('#connection[data-state="reconnecting"]')?.innerText.includes('reconnecting')"#),
                    "the indicator shows the reconnection")
                page = try await Self.whatAPersonSees(browser)
                #expect(page["devices"]?.arrayValue?.count == 2)
            }
        }
    }

    /// The page as a person reads it (innerText of what is shown), as JSON.
    static func whatAPersonSees(_ browser: HeadlessChromium) async throws -> JSONValue {
        let json = try await browser.evaluate(
            """
            JSON.stringify((() => {
              const text = (element) => element ? element.innerText.trim() : null;
              return {
                connection: document.getElementById('connection').dataset.state,
                connectionText: text(document.getElementById('connection')),
                devices: [...document.querySelectorAll('article.phone')].map((phone) => ({
                  id: phone.dataset.deviceId,
                  name: text(phone.querySelector('.device-name')),
                  activities: [...phone.querySelectorAll('li.activity')].map((item) => ({
                    id: item.dataset.activityId,
                    state: item.dataset.state,
                    title: text(item.querySelector('.activity-title')),
                    badge: text(item.querySelector('.badge')),
                    health: item.querySelector('.health-bar')?.getAttribute('aria-valuenow') ?? null,
                    width: item.querySelector('.health-fill')?.style.width ?? null,
                    healthText: text(item.querySelector('.health-value')),
                    event: text(item.querySelector('.event-description')),
                    keyValues: text(item.querySelector('.content-state')),
                    final: Boolean(item.querySelector('.final-label')),
                    alerts: [...item.querySelectorAll('.alert-entry')].map((entry) =>
                      [text(entry.querySelector('.alert-text')), text(entry.querySelector('.alert-sound'))].filter(Boolean).join(' ')),
                  })),
                })),
                log: [...document.querySelectorAll('#push-log-rows tr.log-row')].map((row) => ({
                  time: text(row.querySelector('.log-time')),
                  token: text(row.querySelector('.log-token')),
                  headers: text(row.querySelector('.log-headers')),
                  status: text(row.querySelector('.log-status')),
                  outcome: text(row.querySelector('.outcome')),
                  detail: text(row.querySelector('.outcome-detail')),
                })),
              };
            })())
            """)
        return try JSONValue.parse(json.stringValue ?? "null")
    }

    static func activity(_ id: String, in page: JSONValue) -> JSONValue? {
        for device in page["devices"]?.arrayValue ?? [] {
            if let found = device["activities"]?.arrayValue?.first(where: { $0["id"]?.stringValue == id }) { return found }
        }
        return nil
    }

    static func order(_ deviceID: String, in page: JSONValue) -> [String]? {
        page["devices"]?.arrayValue?.first { $0["id"]?.stringValue == deviceID }?["activities"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
    }
}
