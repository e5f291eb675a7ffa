import APNsSimulator
import LiveActivity
import LivePushKit
import LivePushKitSimulation
import LivePushTesting
import Testing

/// The simulated adapter against a real simulator: each device event becomes the call ActivityKit's adapter
/// makes, for the followed attributes type and iPhone only.
// A hang guard, not a speed target: the time a test waits for a place in LivePushTesting's ScopeGate
// (behind an `.exclusive` suite, on a busy machine) counts against it.
@Suite(.timeLimit(.minutes(10)))
struct SimulatedActivityAdapterTests {
    static let state: JSONValue = ["currentHealthLevel": 1, "eventDescription": "go"]

    @Test func aLaunchReportsAuthorizationThePropertyAndTheRunningActivities() async throws {
        try await withSimulator(SimulatorOptions(attributesTypes: ["AdventureAttributes", "SideQuest"])) { apns in
            let iPhone = try await apns.addIPhone(frequentPushesEnabled: true)
            let running = try await apns.startActivity(on: iPhone, attributes: ["party": "p1"], contentState: Self.state)
            let ended = try await apns.startActivity(on: iPhone, attributes: ["party": "p2"], contentState: Self.state)
            _ = try await apns.simulator.world.endActivity(activityID: ended.id)
            _ = try await apns.startActivity(on: iPhone, attributesType: "SideQuest", contentState: Self.state)
            let sink = RecordingSink()
            let adapter = SimulatedActivityAdapter(
                world: apns.simulator.world, deviceID: iPhone.id, bundleID: apns.bundleID, attributesType: "AdventureAttributes", sink: sink,
                groups: { [$0["party"]?.stringValue ?? "none"] })
            await adapter.launch()
            let calls = await sink.calls
            #expect(calls.first == .authorization(ActivityAuthorization(activitiesEnabled: true, frequentPushesEnabled: true)))
            #expect(calls.contains(.pushToStart(token: iPhone.pushToStartToken, attributesType: "AdventureAttributes", source: .property)))
            #expect(
                calls.contains(
                    .activityToken(token: running.pushToken, activityID: running.id, attributesType: "AdventureAttributes", groups: ["p1"])))
            let endedCalls = calls.filter {
                if case .activityToken(_, ended.id, _, _) = $0 { return true }
                return $0 == .ended(activityID: ended.id, .ended(dismissalDate: nil))
            }
            #expect(endedCalls.count == 2, "the ended activity's token, then its end: \(calls)")
            #expect(calls.count == 5, "nothing of the side quest: \(calls)")
        }
    }

    @Test func deviceEventsBecomeTheStreamsCalls() async throws {
        try await withSimulator { apns in
            let world = apns.simulator.world
            let iPhone = try await apns.addIPhone()
            let other = try await apns.addIPhone(name: "another iPhone")
            let sink = RecordingSink()
            let adapter = apns.adapter(on: iPhone, sink: sink)
            try await following(adapter) {
                let type = apns.attributesTypes[0]
                #expect(
                    await eventually { await sink.contains(.pushToStart(token: iPhone.pushToStartToken, attributesType: type, source: .property)) })
                // Activity.request, then a rotation: pushTokenUpdates yields both.
                let activity = try await apns.startActivity(on: iPhone, contentState: Self.state)
                #expect(
                    await eventually {
                        await sink.contains(.activityToken(token: activity.pushToken, activityID: activity.id, attributesType: type, groups: []))
                    })
                let rotated = try await world.rotateActivityToken(activityID: activity.id)
                #expect(
                    await eventually {
                        await sink.contains(.activityToken(token: rotated, activityID: activity.id, attributesType: type, groups: []))
                    })
                // pushToStartTokenUpdates yields a rotated push-to-start token.
                let newStart = try await world.rotatePushToStartToken(deviceID: iPhone.id)
                #expect(await eventually { await sink.contains(.pushToStart(token: newStart, attributesType: type, source: .stream)) })
                // activityStateUpdates: ended, then dismissed.
                _ = try await world.endActivity(activityID: activity.id)
                #expect(await eventually { await sink.contains(.ended(activityID: activity.id, .ended(dismissalDate: nil))) })
                let second = try await apns.startActivity(on: iPhone, contentState: Self.state)
                _ = try await world.endActivity(activityID: second.id, immediate: true)
                #expect(await eventually { await sink.contains(.ended(activityID: second.id, .dismissed)) })
                // Another iPhone's activity is not this app's: once the next event of this iPhone was
                // reported, the other's (published before it) had been seen and skipped.
                let foreign = try await apns.startActivity(on: other, contentState: Self.state)
                let last = try await apns.startActivity(on: iPhone, contentState: Self.state)
                #expect(
                    await eventually {
                        await sink.contains(.activityToken(token: last.pushToken, activityID: last.id, attributesType: type, groups: []))
                    })
                #expect(await !sink.calls.contains { if case .activityToken(_, foreign.id, _, _) = $0 { true } else { false } })
            }
        }
    }
}

extension SimulatedAPNs {
    func adapter(on iPhone: SimulatedIPhone, sink: RecordingSink, pushToStart: SimulatedActivityAdapter.PushToStart = .streamAndProperty)
        -> SimulatedActivityAdapter
    {
        SimulatedActivityAdapter(
            world: simulator.world, deviceID: iPhone.id, bundleID: bundleID, attributesType: attributesTypes[0], sink: sink, pushToStart: pushToStart)
    }
}

/// Runs `body` while `adapter.run()` follows its iPhone; stops it afterwards.
func following<Result>(
    _ adapter: SimulatedActivityAdapter, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
) async throws -> Result {
    try await whileRunning({ await adapter.run() }, isolation: isolation, body)
}
