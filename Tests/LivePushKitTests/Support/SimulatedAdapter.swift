import APNsSimulator
import LivePushKit
import LivePushKitSimulation
import LivePushTesting

extension SimulatedAPNs {
    /// The app on `iPhone` as LivePushKit's simulated adapter runs it, following the first declared attributes
    /// type and reporting to `sink`.
    func app(
        on iPhone: SimulatedIPhone, reportingTo sink: some LiveActivityEventSink,
        pushToStart: SimulatedActivityAdapter.PushToStart = .streamAndProperty
    ) -> SimulatedActivityAdapter {
        SimulatedActivityAdapter(
            world: simulator.world, deviceID: iPhone.id, bundleID: bundleID, attributesType: attributesTypes[0], sink: sink,
            pushToStart: pushToStart)
    }
}

/// Runs `body` while `adapter.run()` follows the iPhone; stops it afterwards (as the app's process ending would).
func whileFollowing<Result>(
    _ adapter: SimulatedActivityAdapter, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
) async throws -> Result {
    try await LivePushTesting.whileRunning({ await adapter.run() }, isolation: isolation, body)
}
