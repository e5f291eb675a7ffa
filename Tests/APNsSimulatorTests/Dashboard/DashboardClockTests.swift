import APNsCore
import Foundation
import LiveActivity
import LivePushTesting
import Testing

@testable import APNsSimulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The dashboard in headless Chromium while the devices' clock runs at 600 (`--clock-rate 600`: an
/// hour every 6 seconds): a person sees an activity go stale, end at 8 simulated hours and leave the
/// lock screen at 12, with two moves forward through `POST /v1/clock` over the hours nothing happens.
@Suite(.serialized) struct DashboardClockTests {
    @Test(.chromiumInstalled)
    func anActivityGoesStaleEndsAtEightHoursAndLeavesAtTwelve() async throws {
        let rate = try ClockRate(600)
        let options = SimulatorOptions(bundleID: DashboardScene.bundleID, attributesTypes: []) {
            $0.clockRate = rate
            $0.shutdownGracePeriod = 1
        }
        try await withSimulator(options) { apns in
            let world = apns.simulator.world
            let control = try #require(apns.controlURL)
            let device = try await world.addDevice(
                DeviceRegistration(name: "Ava's iPhone", bundleID: DashboardScene.bundleID, environment: "sandbox"))
            let created = try await world.startActivity(
                deviceID: device.deviceID,
                ActivityRequest(
                    attributesType: "TripAttributes", attributes: ["title": "Night train"], contentState: ["stop": "Basel"],
                    staleDate: apns.simulator.clock.now().addingTimeInterval(3600)))
            let startedAt = try await world.activity(id: created.activityID).startedAt
            let item = #"document.querySelector('li[data-activity-id="\#(created.activityID)"]')"#

            try await HeadlessChromium.with { browser in
                try await browser.open("\(control.absoluteString)/dashboard")
                #expect(
                    try await browser.waitUntil(#"document.getElementById('clock')?.innerText.includes('×600')"#),
                    "the top bar shows the simulated clock and its rate")

                #expect(try await browser.waitUntil("\(item)?.dataset.state === 'stale'", seconds: 60), "stale after 1 simulated hour")
                #expect(apns.simulator.clock.now() < startedAt.addingTimeInterval(8 * 3600))
                #expect(try await browser.evaluate("\(item).querySelector('.badge').innerText.toLowerCase()") == "stale")

                try await Self.advance(control, to: startedAt.addingTimeInterval(7 * 3600 + 50 * 60), from: apns.simulator.clock)
                #expect(try await browser.waitUntil("\(item)?.dataset.state === 'ended'", seconds: 60), "ended at 8 simulated hours")
                #expect(apns.simulator.clock.now() >= startedAt.addingTimeInterval(8 * 3600))
                let ended = try await world.activity(id: created.activityID)
                #expect(ended.endedAt == startedAt.addingTimeInterval(8 * 3600))
                #expect(ended.endedBy == .system)
                #expect(
                    try await browser.waitUntil("\(item)?.innerText.includes('leaves the lock screen at')"),
                    "the page reads the dismissal date the system set")
                #expect(try await browser.evaluate("\(item).querySelector('.badge').innerText.toLowerCase()") == "ended")
                #expect(try await browser.evaluate("Boolean(\(item).querySelector('.final-label'))") == true)

                try await Self.advance(control, to: startedAt.addingTimeInterval(11 * 3600 + 50 * 60), from: apns.simulator.clock)
                #expect(try await browser.waitUntil("\(item)?.dataset.state === 'dismissed'", seconds: 60), "gone at 12 simulated hours")
                #expect(apns.simulator.clock.now() >= startedAt.addingTimeInterval(12 * 3600))
                #expect(try await world.activity(id: created.activityID).dismissalDate == startedAt.addingTimeInterval(12 * 3600))
                #expect(try await browser.evaluate("\(item).querySelector('.badge').innerText.toLowerCase()") == "dismissed")
            }
        }
    }

    /// Moves the devices' clock forward to `target` through the control API, as a person would.
    static func advance(_ control: URL, to target: Date, from clock: ScaledWallClock) async throws {
        let seconds = target.timeIntervalSince(clock.now())
        try #require(seconds > 0, "the clock is already past the point the test skips to")
        var request = URLRequest(url: control.appendingPathComponent("/v1/clock"))
        request.httpMethod = "POST"
        request.httpBody = JSONValue.object(["advanceSeconds": .number(seconds)]).serialized()
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}
