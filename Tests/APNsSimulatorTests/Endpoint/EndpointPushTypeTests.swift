import APNsCore
import Foundation
import Testing

@testable import APNsSimulator

/// Each push type's topic, checked as APNs checks it (docs/apns-protocol.md §3.2), over real sockets:
/// the iOS 26 types `widgets` and `controls` included.
@Suite struct EndpointPushTypeTests {
    static let reload = Array(#"{"aps":{"content-changed":true}}"#.utf8)
    static let bundleID = EndpointHarness.bundleID

    @Test(
        arguments: [
            ("widgets", "\(bundleID).push-type.widgets", 200, nil),
            ("controls", "\(bundleID).push-type.controls", 200, nil),
            ("widgets", "\(bundleID).push-type.controls", 400, "BadTopic"),
            ("controls", "\(bundleID).push-type.widgets", 400, "BadTopic"),
            ("widgets", bundleID, 400, "BadTopic"),
            ("controls", "\(bundleID).push-type.liveactivity", 400, "BadTopic"),
            ("alert", "\(bundleID).push-type.widgets", 400, "BadTopic"),
            ("Widgets", "\(bundleID).push-type.widgets", 400, "InvalidPushType"),
        ] as [(String, String, Int, String?)])
    func theTopicMustCarryThePushTypesSuffix(pushType: String, topic: String, status: Int, reason: String?) async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
                let answer = try await client.send(
                    harness.request(replacing: ["apns-push-type": pushType, "apns-topic": topic, "apns-priority": "5"]), body: Self.reload)
                #expect(answer.status == status)
                #expect(answer.reason == reason)
            }
        }
    }

    /// A widgets push to a Live Activity token is for another topic than the token's.
    @Test func aWidgetsPushToAnActivityTokenIsNotForItsTopic() async throws {
        let fixture = try await DeviceWorldFixture()
        var push = fixture.push(["content-changed": true], topic: "\(DeviceWorldFixture.bundleID).push-type.widgets")
        push.pushType = .widgets
        let verdict = await fixture.world.deliver(push)
        #expect(verdict == .rejected(.deviceTokenNotForTopic, invalidSince: nil))
    }
}
