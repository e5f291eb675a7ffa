import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// A renewal whose start cannot be made or is refused: the old activity keeps its updates until its
/// limit, and the webhook and the activity's renewal say why.
@Suite struct RenewalFailureTests {
    /// Advances to 7h45m, expects the renewal to fail for `reason`, then checks the old activity still
    /// takes updates, and ends at 8 hours.
    private func expectFailure(
        _ reason: String, world: RenewalHarness, receiver: WebhookReceiver, first: String, advanced: Int = 0, others: Int = 0,
        refused: Bool = false
    ) async throws {
        try await world.advance(minutes: 7 * 60 + 45 - advanced)
        if refused {
            // APNs answers the start; the next sweep, a simulated minute on, sees the token refused.
            let invalid = await eventually { receiver.bodies.contains { $0["event"] == "token.invalid" } }
            #expect(invalid)
            try await world.advance(minutes: 1)
        }
        let failed = try await eventually(timeout: .seconds(20)) { try await world.detail(first)["renewal"]?["state"] == "failed" }
        #expect(failed)
        #expect(try await world.detail(first)["renewal"]?["reason"]?.stringValue == reason)
        let event = await eventually { receiver.bodies.contains { $0["event"] == "activity.renewalFailed" } }
        #expect(event)
        let body = receiver.bodies.first { $0["event"] == "activity.renewalFailed" }
        #expect(body?["activityId"]?.stringValue == first && body?["reason"]?.stringValue == reason && body?["userId"] == "u1")
        // The old activity keeps updating until its limit.
        let update = try await world.server.http.post("/v1/activities/\(first)/update", key: TestServer.backendKey, #"{"contentState":{"hour":7}}"#)
        #expect(update.status == 202, "\(update.text)")
        let shown = try await eventually { try await world.activeOnDevice().first?.contentState["hour"]?.numberValue == 7 }
        #expect(shown)
        let running = try await world.activeOnDevice()
        #expect(running.count == 1 + others, "no successor: \(running.map { "\($0.activityID) \($0.state) \($0.attributes)" })")
        try await world.advance(minutes: refused ? 14 : 15)
        let ended = try await eventually { try await world.detail(first)["activity"]?["state"] == "ended" }
        #expect(ended, "ended at its 8-hour limit")
        #expect(try await world.detail(first)["renewal"]?["reason"]?.stringValue == reason, "the first reason stays")
    }

    @Test(arguments: TestDatabase.available)
    func withoutAPushToStartTokenTheRenewalFails(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, receiver in
            let first = try await world.startFirstActivity()
            try await expectFailure("noPushToStartToken", world: world, receiver: receiver, first: first)
        }
    }

    /// The type's ContentState shape changed since the activity's last update (a required `status`): the start
    /// with that last state would be dropped on the device, so it is not sent and the renewal fails.
    @Test(arguments: TestDatabase.available)
    func aLastStateTheShapeRefusesFailsTheRenewal(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, receiver in
            try await world.storePushToStartToken()
            let first = try await world.startFirstActivity()
            let update = try await world.server.http.post(
                "/v1/activities/\(first)/update", key: TestServer.backendKey, #"{"contentState":{"hour":1}}"#)
            #expect(update.status == 202, "\(update.text)")
            let shape = try await world.server.http.put(
                "/v1/apps/\(world.sim.bundleID)/attributes-types/AdventureAttributes/content-state-shape", key: TestServer.backendKey,
                #"{"type":"object","properties":{"hour":{"type":"number"},"status":{"type":["string","null"]}},"required":["hour","status"]}"#)
            #expect(shape.status == 200, "\(shape.text)")
            try await world.advance(minutes: 7 * 60 + 45)
            let failed = try await eventually(timeout: .seconds(20)) { try await world.detail(first)["renewal"]?["state"] == "failed" }
            #expect(failed)
            #expect(try await world.detail(first)["renewal"]?["reason"]?.stringValue == "contentStateUndecodable")
            #expect(try await world.activeOnDevice().count == 1, "no start reached the iPhone")
            _ = receiver
        }
    }

    /// APNs answers the start 410 `ExpiredToken`: the push-to-start token is invalid, and so is the renewal.
    @Test(arguments: TestDatabase.available)
    func aStartRefusedWithExpiredTokenFailsTheRenewal(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, receiver in
            try await world.storePushToStartToken()
            let first = try await world.startFirstActivity()
            try await world.sim.simulator.world.expireToken(world.iPhone.pushToStartToken)
            try await expectFailure("ExpiredToken", world: world, receiver: receiver, first: first, refused: true)
            #expect(receiver.bodies.contains { $0["event"] == "token.invalid" && $0["reason"] == "ExpiredToken" })
        }
    }

    /// The device's push-to-start budget is used (two starts in the last hour, with a budget of two):
    /// the renewal does not send a start the device would drop.
    @Test(arguments: TestDatabase.available)
    func aUsedPushToStartBudgetFailsTheRenewal(database: TestStore) async throws {
        try await RenewalHarness.run(database, configure: { $0.pushToStartBudget = 2 }) { world, receiver in
            try await world.storePushToStartToken()
            let first = try await world.startFirstActivity()
            try await world.advance(minutes: 7 * 60)
            for quest in 1...2 {
                let started = try await world.server.http.post(
                    "/v1/users/u1/start", key: TestServer.backendKey,
                    #"{"attributesType":"AdventureAttributes","attributes":{"hero":"Quest \#(quest)"},"contentState":{"hour":7},"alert":{"title":"Side quest"}}"#
                )
                #expect(started.status == 202, "\(started.text)")
            }
            let sideQuests = try await eventually { try await world.activeOnDevice().count == 3 }
            #expect(sideQuests)
            // The iPhone shows a start before the server has read APNs' answer and settled it: the clock moves
            // only once it has, or the claim (60 s on this clock) expires and the start is sent again.
            let settled = try await eventually { try await world.server.store.outboxDepth() == 0 }
            #expect(settled, "both starts settled before the clock moves")
            try await expectFailure("pushToStartBudget", world: world, receiver: receiver, first: first, advanced: 7 * 60, others: 2)
        }
    }
}
