import APNsCore
import Foundation
import LiveActivity

@testable import APNsSimulator

/// A world on a manual clock with one sandbox device running one activity of `com.example.rangers`.
struct DeviceWorldFixture {
    static let bundleID = "com.example.rangers"
    static let topic = "com.example.rangers.push-type.liveactivity"
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    let clock: ManualWallClock
    let world: DeviceWorld
    let deviceID: String
    let pushToStartToken: String
    let activityID: String
    let activityToken: String

    init(
        rules: DeviceRules = DeviceRules(), localizations: [String: String]? = nil, frequentPushes: Bool = false,
        contentState: JSONValue = ["currentHealthLevel": 1.0, "eventDescription": "Ready"]
    ) async throws {
        let clock = ManualWallClock(Self.start)
        let world = DeviceWorld(clock: clock, rules: rules)
        try await world.registerApp(
            AppRegistration(
                bundleID: Self.bundleID, environment: "sandbox", localizations: localizations))
        let device = try await world.addDevice(
            DeviceRegistration(
                name: "Test iPhone", bundleID: Self.bundleID, environment: "sandbox", frequentPushesEnabled: frequentPushes))
        let activity = try await world.startActivity(
            deviceID: device.deviceID,
            ActivityRequest(
                attributesType: "AdventureAttributes", attributes: ["hero": "Power Panda"], contentState: contentState))
        self.clock = clock
        self.world = world
        self.deviceID = device.deviceID
        self.pushToStartToken = device.pushToStartToken
        self.activityID = activity.activityID
        self.activityToken = activity.pushToken
    }

    /// A push as the endpoint hands it over.
    func push(
        _ aps: JSONValue, to token: String? = nil, priority: APNsPriority = .conservesPower,
        environment: APNsEnvironment = .sandbox, topic: String = DeviceWorldFixture.topic
    ) -> ReceivedPush {
        let payload = JSONValue.object(["aps": aps]).serialized()
        return ReceivedPush(
            token: token ?? activityToken, environment: environment, topic: topic, pushType: .liveactivity,
            priority: priority, expiration: nil, collapseID: nil, apnsID: APNsID.generate(),
            headers: [HeaderField(name: "apns-push-type", value: "liveactivity")], payload: payload,
            receivedAt: clock.now(), teamID: "TEAM123456", keyID: "KEY1234567"
        )
    }

    /// `aps` of an update at `timestamp` (Unix seconds).
    static func update(_ timestamp: Int, health: Double = 0.5, extra: [String: JSONValue] = [:]) -> JSONValue {
        var aps: [String: JSONValue] = [
            "event": "update", "timestamp": .number(Double(timestamp)),
            "content-state": ["currentHealthLevel": .number(health), "eventDescription": "Hit"],
        ]
        aps.merge(extra) { _, new in new }
        return .object(aps)
    }

    static func end(_ timestamp: Int, dismissal: Int? = nil) -> JSONValue {
        var aps: [String: JSONValue] = [
            "event": "end", "timestamp": .number(Double(timestamp)),
            "content-state": ["currentHealthLevel": 0.0, "eventDescription": "Over"],
        ]
        if let dismissal { aps["dismissal-date"] = .number(Double(dismissal)) }
        return .object(aps)
    }

    var now: Int { Int(clock.now().timeIntervalSince1970) }

    func activity() async throws -> ActivitySnapshot { try await world.activity(id: activityID) }
}
