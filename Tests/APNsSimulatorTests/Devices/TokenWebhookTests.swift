import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushTesting
import Testing

@Suite struct TokenWebhookTests {
    @Test func newTokensArePostedToTheDevicesWebhook() async throws {
        try await withWebhookReceiver { receiver in
            let world = DeviceWorld(logger: ControlHarness.quietLogger)
            let device = try await world.addDevice(
                DeviceRegistration(
                    name: "Hooked", bundleID: "com.example.hook", environment: "production",
                    webhookURL: "http://127.0.0.1:\(receiver.port)/tokens"))
            let first = try await Self.post(1, to: receiver)
            #expect(first.path == "/tokens")
            #expect(first.headers["content-type"] == "application/json")
            let startBody = try JSONValue.parse(first.body)
            #expect(startBody["kind"] == "pushToStartToken")
            #expect(startBody["token"]?.stringValue == device.pushToStartToken)
            #expect(startBody["bundleId"] == "com.example.hook")
            #expect(startBody["activityId"] == .null)

            let activity = try await world.startActivity(
                deviceID: device.deviceID,
                ActivityRequest(
                    attributesType: "HookAttributes", attributes: [:], contentState: ["score": 1]))
            let second = try await Self.post(2, to: receiver)
            let tokenBody = try JSONValue.parse(second.body)
            #expect(tokenBody["kind"] == "pushToken")
            #expect(tokenBody["activityId"]?.stringValue == activity.activityID)
            #expect(tokenBody["token"]?.stringValue == activity.pushToken)
            #expect(tokenBody["attributesType"] == "HookAttributes")

            let rotated = try await world.rotateActivityToken(activityID: activity.activityID)
            let third = try await Self.post(3, to: receiver)
            #expect(try JSONValue.parse(third.body)["token"]?.stringValue == rotated)
        }
    }

    @Test func unreachableWebhookIsRecordedAsAFailureWithoutHarm() async throws {
        // A port nothing listens on any more: a receiver's, once it stopped.
        let closedPort = try await withWebhookReceiver { receiver in receiver.port }
        let world = DeviceWorld(logger: ControlHarness.quietLogger)
        let events = world.events.subscribe()
        let device = try await world.addDevice(
            DeviceRegistration(
                name: "Lonely", bundleID: "com.example.hook", environment: "sandbox",
                webhookURL: "http://127.0.0.1:\(closedPort)/tokens"))
        let failure = await events.first { $0.kind == .webhookFailed }
        #expect(failure?.data["error"]?.stringValue?.isEmpty == false)
        let snapshot = try await world.device(id: device.deviceID)
        #expect(snapshot.webhookDeliveries.first?.status == nil)
        #expect(snapshot.webhookDeliveries.first?.error != nil)
    }

    @Test func webhookAnsweringAnErrorStatusIsRecorded() async throws {
        try await withWebhookReceiver(WebhookBehavior(status: 500)) { receiver in
            let world = DeviceWorld(logger: ControlHarness.quietLogger)
            let events = world.events.subscribe()
            _ = try await world.addDevice(
                DeviceRegistration(
                    name: "Grumpy", bundleID: "com.example.hook", environment: "sandbox",
                    webhookURL: "http://127.0.0.1:\(receiver.port)/tokens"))
            let failure = await events.first { $0.kind == .webhookFailed }
            #expect(failure?.data["status"] == 500)
        }
    }

    /// The `number`th POST the receiver got (1 is the first), once it arrived.
    static func post(_ number: Int, to receiver: WebhookReceiver) async throws -> WebhookReceiver.Post {
        _ = await eventually(timeout: .seconds(10)) { receiver.posts.count >= number }
        let posts = receiver.posts
        try #require(posts.count >= number, "\(posts.count) POSTs arrived, not \(number)")
        return posts[number - 1]
    }
}
