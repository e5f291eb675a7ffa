import APNsSimulator
import LivePushKit
import LivePushTesting

/// The simulated adapter: what the ActivityKit adapter does at a launch, read from a simulated iPhone
/// instead of ActivityKit, through the same protocol. The push-to-start token comes from the property
/// only (`pushToStartToken`): here, as on the launches reported in the field, the stream never yields.
struct SimulatedApp {
    let apns: SimulatedAPNs
    let iPhone: SimulatedIPhone
    let sink: any LiveActivityEventSink

    /// A launch: authorization, the push-to-start property, and the update token of every running activity
    /// (those started by push while the app was not running among them).
    func launch() async throws {
        let device = try await apns.simulator.world.device(id: iPhone.id)
        await sink.authorization(ActivityAuthorization(activitiesEnabled: true, frequentPushesEnabled: device.frequentPushesEnabled))
        if let token = PushToken(hex: iPhone.pushToStartToken) {
            await sink.pushToStartToken(token, attributesType: apns.attributesTypes[0], source: .property)
        }
        for activity in device.activities where activity.state == .active {
            guard let hex = activity.pushToken, let token = PushToken(hex: hex) else { continue }
            await sink.activityToken(token, activityID: activity.activityID, attributesType: activity.attributesType, groups: [])
        }
    }
}

/// The app's user token, from its backend: counts how often it was asked and renewed.
actor UserTokens {
    private let backend: Backend
    private let userID: String
    private let ttl: Int
    private(set) var issued = 0
    private(set) var renewals = 0

    init(backend: Backend, userID: String, ttl: Int = 3600) {
        self.backend = backend
        self.userID = userID
        self.ttl = ttl
    }

    func token(renew: Bool) async throws -> String {
        issued += 1
        if renew { renewals += 1 }
        return try await backend.userToken(userID, ttl: ttl)
    }
}
