import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import APNsSimulator

/// The dashboard's channels panel in a real headless Chromium: channels, subscriber counts and the last
/// broadcast follow the event stream.
@Suite(.serialized) struct DashboardChannelsTests {
    @Test(.chromiumInstalled)
    func channelsAndSubscriberCountsFollowTheStream() async throws {
        try await withDashboardScene { scene in
            let world = scene.world
            let device = try await world.addDevice(
                DeviceRegistration(name: "Fan's iPhone", bundleID: DashboardScene.bundleID, environment: "sandbox"))
            let scores = try await world.createChannel(
                ChannelRegistration(bundleID: DashboardScene.bundleID, environment: "sandbox", messageStoragePolicy: 1))
            let request = ActivityRequest(
                attributesType: "MatchAttributes", attributes: ["home": "Giants"], contentState: ["score": 0], channelID: scores.channelID
            )
            _ = try await world.startChannelActivities(deviceID: device.deviceID, request, count: 2)

            try await HeadlessChromium.with { browser in
                try await browser.open(scene.dashboardURL)
                #expect(
                    try await browser.waitUntil(
                        #"document.querySelector('#connection[data-state="live"]') && document.querySelectorAll('#channel-rows tr[data-channel-id]').length === 1"#
                    ))
                // The page follows the event stream once the simulator has subscribed it (the page may show "live"
                // from the response head a moment before).
                for _ in 0..<200 where world.events.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(25)) }
                #expect(world.events.subscriberCount > 0)
                var row = try await Self.row(browser, scores.channelID)
                #expect(row["subscribers"] == "2")
                #expect(row["storage"] == "1 (most recent)")
                #expect(row["broadcasts"] == "0")

                // A new channel, a third subscriber and a broadcast, while the page is open.
                let other = try await world.createChannel(
                    ChannelRegistration(bundleID: DashboardScene.bundleID, environment: "sandbox", messageStoragePolicy: 0))
                _ = try await world.startChannelActivity(deviceID: device.deviceID, request)
                _ = await world.broadcast(
                    ReceivedBroadcast(
                        channelID: scores.channelID, bundleID: DashboardScene.bundleID, environment: .sandbox, priority: .conservesPower,
                        expiration: Int64(Date().timeIntervalSince1970) + 600, requestID: UUID().uuidString.lowercased(), headers: [],
                        payload: Data(
                            #"{"aps":{"event":"update","timestamp":\#(Int(Date().timeIntervalSince1970)),"content-state":{"score":1}}}"#.utf8),
                        receivedAt: Date()
                    ))
                // Waits for the whole final state: the table may pass through intermediate ones while events arrive.
                #expect(
                    try await browser.waitUntil(
                        #"document.querySelectorAll('#channel-rows tr[data-channel-id]').length === 2 && document.querySelector('#channel-rows tr[data-channel-id="\#(scores.channelID)"] .broadcast-count')?.textContent === '1' && document.querySelector('#channel-rows tr[data-channel-id="\#(scores.channelID)"] .subscriber-count')?.textContent === '3'"#
                    ))
                row = try await Self.row(browser, scores.channelID)
                #expect(row["subscribers"] == "3")
                #expect(row["last"]?.stringValue?.contains("3 applied") == true)
                let empty = try await Self.row(browser, other.channelID)
                #expect(empty["subscribers"] == "0")
                #expect(empty["storage"] == "0 (no storage)")
            }
        }
    }

    /// One row of the channels table as a person reads it.
    static func row(_ browser: HeadlessChromium, _ channelID: String) async throws -> JSONValue {
        let json = try await browser.evaluate(
            """
            JSON.stringify((() => {
              const row = document.querySelector('#channel-rows tr[data-channel-id="\(channelID)"]');
              if (!row) return null;
              const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent.trim());
              return { id: cells[0], app: cells[1], storage: cells[2], subscribers: cells[3], broadcasts: cells[4], last: cells[5] };
            })())
            """)
        return try JSONValue.parse(json.stringValue ?? "null")
    }
}
