import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

@Suite struct PushToStartTests {
    static func startAPS(_ timestamp: Int, alert: Bool = true, inputPushToken: Bool = false, type: String = "AdventureAttributes") -> JSONValue {
        var aps: [String: JSONValue] = [
            "event": "start", "timestamp": .number(Double(timestamp)),
            "attributes-type": .string(type), "attributes": ["name": "Apple"],
            "content-state": ["emoji": "🍏🍏"],
        ]
        if alert { aps["alert"] = ["title": "Hello", "body": "World", "sound": "chime.aiff"] }
        if inputPushToken { aps["input-push-token"] = 1 }
        return .object(aps)
    }

    private func started(_ fixture: DeviceWorldFixture) async throws -> [ActivitySnapshot] {
        try await fixture.world.device(id: fixture.deviceID).activities.filter { $0.activityID != fixture.activityID }
    }

    @Test func startWithAlertCreatesAnActivityWithAnUpdateToken() async throws {
        let fixture = try await DeviceWorldFixture()
        let verdict = await fixture.world.deliver(fixture.push(Self.startAPS(fixture.now, inputPushToken: true), to: fixture.pushToStartToken))
        #expect(verdict == .accepted)
        let activity = try #require(try await started(fixture).first)
        #expect(activity.attributesType == "AdventureAttributes")
        #expect(activity.attributes["name"] == "Apple")
        #expect(activity.contentState["emoji"] == "🍏🍏")
        #expect(activity.alerts.first?.title == "Hello")
        #expect(activity.alerts.first?.sound == "chime.aiff")
        let token = try #require(activity.pushToken)
        #expect(token.count == 160)
        #expect(activity.history.first?.outcome.kind == .started)
        let update = await fixture.world.deliver(
            fixture.push(
                .object([
                    "event": "update", "timestamp": .number(Double(fixture.now + 1)), "content-state": ["emoji": "🍎"],
                ]), to: token))
        #expect(update == .accepted)
        #expect(try await fixture.world.activity(id: activity.activityID).contentState["emoji"] == "🍎")
    }

    @Test func startWithoutAlertIsDropped() async throws {
        let fixture = try await DeviceWorldFixture()
        let verdict = await fixture.world.deliver(fixture.push(Self.startAPS(fixture.now, alert: false), to: fixture.pushToStartToken))
        #expect(verdict == .accepted)
        #expect(try await started(fixture).isEmpty)
        let device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.apps.first?.history.last?.outcome.kind == .dropped)
    }

    @Test func startWithoutInputPushTokenGetsATokenByDefaultButNotWhenTheRuleIsOff() async throws {
        let fixture = try await DeviceWorldFixture()
        _ = await fixture.world.deliver(fixture.push(Self.startAPS(fixture.now), to: fixture.pushToStartToken))
        #expect(try await started(fixture).first?.pushToken != nil)

        var rules = DeviceRules()
        rules.issueUpdateTokenWithoutInputPushToken = false
        let strict = try await DeviceWorldFixture(rules: rules)
        _ = await strict.world.deliver(strict.push(Self.startAPS(strict.now), to: strict.pushToStartToken))
        let withoutToken = try #require(try await started(strict).first)
        #expect(withoutToken.pushToken == nil)
        _ = await strict.world.deliver(strict.push(Self.startAPS(strict.now + 1, inputPushToken: true), to: strict.pushToStartToken))
        #expect(try await started(strict).contains { $0.pushToken != nil })
    }

    @Test func updateSentToThePushToStartTokenIsDropped() async throws {
        let fixture = try await DeviceWorldFixture()
        let verdict = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now), to: fixture.pushToStartToken))
        #expect(verdict == .accepted)
        let device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.apps.first?.history.last?.outcome.kind == .dropped)
        #expect(device.activities.count == 1)
    }

    @Test func startOfATypeTheAppDoesNotDeclareIsADecodeFailure() async throws {
        let fixture = try await DeviceWorldFixture()
        try await fixture.world.registerApp(
            AppRegistration(
                bundleID: DeviceWorldFixture.bundleID, environment: "sandbox",
                attributesTypes: DeclaredAttributesTypes(["LiveActivityAttributes": ContentStateSchema(fields: ["emoji": FieldType(.string)])])))
        _ = await fixture.world.deliver(fixture.push(Self.startAPS(fixture.now, type: "Other"), to: fixture.pushToStartToken))
        #expect(try await started(fixture).isEmpty)
        var device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.apps.first?.history.last?.outcome.kind == .decodeFailure)
        _ = await fixture.world.deliver(fixture.push(Self.startAPS(fixture.now, type: "LiveActivityAttributes"), to: fixture.pushToStartToken))
        device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.activities.count == 2)
    }
}
