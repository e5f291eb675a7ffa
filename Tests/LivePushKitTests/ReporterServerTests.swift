import APNsCore
import Foundation
import LivePushKit
import LivePushTesting
import Testing

/// LivePushKit's reporter against a real `livepush serve` over the simulator, on real sockets: what the
/// app hands over reaches the server whatever the network, the server and the app's process do.
// A hang guard, not a speed target: the time a test waits for a place in LivePushTesting's ScopeGate
// (behind an `.exclusive` suite, on a busy machine) counts against it.
@Suite(.timeLimit(.minutes(10)))
struct ReporterServerTests {
    static var state: [String: Any] { ["currentHealthLevel": 1, "eventDescription": "Adventure has begun!"] }

    @Test func theServerDownAtFirstThenUpLosesNothing() async throws {
        try await withAppSetup(user: "ava") { setup in
            let activity = try await setup.startActivity()
            // The app's server is down: every connection is refused.
            let transport = ForwardingTransport(target: try closedLoopbackURL())
            let reporter = try LivePushReporter(
                setup.configuration(transport: transport))
            try await whileRunning(reporter) {
                await setup.apns.app(on: setup.iPhone, reportingTo: reporter).launch()
                #expect(await eventually { transport.log.count(where: \.failed) >= 3 })
                #expect(await reporter.pendingCount == 2)

                transport.retarget(setup.server.url)
                #expect(await eventually { await reporter.pendingCount == 0 })
            }
            let stored = try #require(try await setup.backend.activity(activity.id))
            #expect(stored["pushToken"] as? String == DeviceToken.shorten(activity.pushToken))
            #expect(stored["userId"] as? String == "ava")
            // The push-to-start token reached it too: the backend starts an activity on the iPhone with it.
            #expect(
                try await setup.backend.start(user: "ava", attributesType: setup.apns.attributesTypes[0], attributes: [:], contentState: Self.state)
                    == 202)
            #expect(await eventually { (try? await setup.apns.simulator.world.device(id: setup.iPhone.id).activities.count) == 2 })
        }
    }

    /// `settled()` returns at once when nothing is owed; while the server cannot be reached it waits
    /// (cancelled, it returns with the report still owed); and it returns once the server stored everything
    /// given, a report given while it waits included.
    @Test func settledReturnsOnceTheServerHasEverythingGiven() async throws {
        try await withAppSetup(user: "fay") { setup in
            let activity = try await setup.startActivity()
            let type = setup.apns.attributesTypes[0]
            let transport = ForwardingTransport(target: setup.server.url)
            transport.setFailing(true)
            let reporter = try LivePushReporter(setup.configuration(transport: transport, onIPhone: false))
            await reporter.settled()
            try await whileRunning(reporter) {
                await reporter.activityToken(PushToken(hex: activity.pushToken)!, activityID: activity.id, attributesType: type, groups: [])
                let cancelled = Task { await reporter.settled() }
                #expect(await eventually { transport.log.count(where: \.failed) >= 2 })
                cancelled.cancel()
                await cancelled.value
                #expect(await reporter.pendingCount == 1)

                let settled = Task { await reporter.settled() }
                await reporter.pushToStartToken(PushToken(hex: String(repeating: "cd", count: 32))!, attributesType: type, source: .stream)
                transport.setFailing(false)
                await settled.value
                let status = await reporter.status
                #expect(status.pending == 0 && status.activityTokensStored == 1 && status.pushToStartTokensStored == 1, "\(status)")
            }
            #expect(try await setup.backend.activity(activity.id)?["pushToken"] as? String == DeviceToken.shorten(activity.pushToken))
        }
    }

    @Test func aRelaunchSendsWhatTheJournalHolds() async throws {
        try await withAppSetup(user: "ben") { setup in
            let activity = try await setup.startActivity()

            // First launch: no network; the process ends with both reports pending.
            let offline = ForwardingTransport(target: setup.server.url)
            offline.setFailing(true)
            let first = try LivePushReporter(setup.configuration(transport: offline))
            try await whileRunning(first) {
                await setup.apns.app(on: setup.iPhone, reportingTo: first).launch()
                #expect(await eventually { offline.log.contains(where: \.failed) })
            }
            #expect(await first.pendingCount == 2)

            // Relaunch, online: the journal alone says what to send; no event is given again.
            let online = ForwardingTransport(target: setup.server.url)
            let second = try LivePushReporter(setup.configuration(transport: online, onIPhone: false))
            #expect(await second.pendingCount == 2)
            #expect(await second.deviceID == setup.iPhone.id)
            try await whileRunning(second) {
                #expect(await eventually { await second.pendingCount == 0 })
            }
            #expect(try await setup.backend.activity(activity.id)?["pushToken"] as? String == DeviceToken.shorten(activity.pushToken))
            #expect(Set(online.log.map(\.operationID)) == ["registerActivity", "storePushToStartToken"])
        }
    }

    @Test func aRotatedTokenArrivingWhileTheOlderIsRetriedWins() async throws {
        try await withAppSetup(user: "cal") { setup in
            let activity = try await setup.startActivity()
            let older = String(repeating: "ab", count: 32)
            let transport = ForwardingTransport(target: setup.server.url)
            transport.setFailing(true)
            let reporter = try LivePushReporter(
                setup.configuration(transport: transport, onIPhone: false))
            try await whileRunning(reporter) {
                await reporter.activityToken(
                    PushToken(hex: older)!, activityID: activity.id, attributesType: setup.apns.attributesTypes[0], groups: [])
                #expect(await eventually { transport.log.contains { $0.failed && $0.body.contains(older) } })
                // ActivityKit rotates the token while the first registration is being retried.
                await reporter.activityToken(
                    PushToken(hex: activity.pushToken)!, activityID: activity.id, attributesType: setup.apns.attributesTypes[0], groups: [])
                #expect(await eventually { transport.log.contains { $0.failed && $0.body.contains(activity.pushToken) } })
                transport.setFailing(false)
                #expect(await eventually { await reporter.pendingCount == 0 })
            }
            // Once the newer token was in the journal, the older one was never sent again.
            let log = transport.log
            let firstNewer = try #require(log.firstIndex { $0.body.contains(activity.pushToken) })
            #expect(!log[firstNewer...].contains { $0.body.contains(older) })
            #expect(try await setup.backend.activity(activity.id)?["pushToken"] as? String == DeviceToken.shorten(activity.pushToken))
            // And the server pushes to the newer token: the iPhone shows the update.
            #expect(try await setup.updateReaches(activity.id, event: "hit"))
        }
    }

    @Test func anExpiredUserTokenIsRenewedOn401() async throws {
        let clock = ManualWallClock(Date())
        try await withAppSetup(user: "dee", tokenTTL: 60, ServerOptions(clock: clock)) { setup in
            let activity = try await setup.startActivity()
            let transport = ForwardingTransport(target: setup.server.url)
            let reporter = try LivePushReporter(
                setup.configuration(transport: transport, onIPhone: false))
            try await whileRunning(reporter) {
                await reporter.activityToken(
                    PushToken(hex: activity.pushToken)!, activityID: activity.id, attributesType: setup.apns.attributesTypes[0], groups: [])
                #expect(await eventually { await reporter.pendingCount == 0 })
                // A minute later the token has expired; the next report is answered 401 and the app is asked again.
                clock.advance(by: 120)
                await reporter.activityEnded(activityID: activity.id, .ended(dismissalDate: nil))
                #expect(await eventually { await reporter.pendingCount == 0 })
            }
            #expect(await setup.tokens.renewals == 1)
            #expect(await setup.tokens.issued == 2)
            #expect(try await setup.backend.activity(activity.id)?["state"] as? String == "ended")
        }
    }

    @Test func anInstallationIsOpenedOnceAndKeptAcrossLaunches() async throws {
        try await withAppSetup { setup in
            let activity = try await setup.startActivity()
            let transport = ForwardingTransport(target: setup.server.url)
            let configuration = setup.configuration(transport: transport, credential: .installation(appKey: setup.server.appKey))
            let first = try LivePushReporter(configuration)
            try await whileRunning(first) {
                await setup.apns.app(on: setup.iPhone, reportingTo: first).launch()
                #expect(await eventually { await first.pendingCount == 0 })
            }
            let installation = try #require(await first.installationID)
            #expect(installation.hasPrefix("inst_"))

            let second = try LivePushReporter(configuration)
            #expect(await second.installationID == installation)
            try await whileRunning(second) {
                await second.activityEnded(activityID: activity.id, .dismissed)
                #expect(await eventually { await second.pendingCount == 0 })
            }
            // Opened once: a request that timed out on a loaded machine may have been retried (the server
            // may then hold an unused installation), but no launch opens another once one is kept.
            let opens = transport.log.filter { $0.operationID == "openInstallation" }
            #expect(opens.count { !$0.failed } == 1, "\(opens.map(\.failed))")
            let stored = try #require(try await setup.backend.activity(activity.id))
            #expect(stored["userId"] as? String == installation)
            #expect(stored["state"] as? String == "dismissed")
        }
    }

    @Test func aRefusalNamingAFieldIsNotRetried() async throws {
        try await withAppSetup(user: "eve") { setup in
            let other = UserTokens(backend: setup.backend, userID: "zed")
            let activity = try await setup.startActivity()
            let type = setup.apns.attributesTypes[0]
            let token = PushToken(hex: activity.pushToken)!
            let eve = try LivePushReporter(
                setup.configuration(transport: ForwardingTransport(target: setup.server.url), journal: "eve", onIPhone: false))
            try await whileRunning(eve) {
                await eve.activityToken(token, activityID: activity.id, attributesType: type, groups: [])
                #expect(await eventually { await eve.pendingCount == 0 })
            }
            // Another user's app registers the same activity id: 409 taken (field activityId), not retried.
            let transport = ForwardingTransport(target: setup.server.url)
            let zed = try LivePushReporter(
                setup.configuration(
                    transport: transport, credential: .userToken { try await other.token(renew: $0) }, journal: "zed", onIPhone: false))
            try await whileRunning(zed) {
                await zed.activityToken(token, activityID: activity.id, attributesType: type, groups: [])
                #expect(await eventually { await zed.pendingCount == 0 })
                // One the contract refuses (an id over 128 characters) is not even sent.
                await zed.activityToken(token, activityID: String(repeating: "x", count: 200), attributesType: type, groups: [])
                #expect(await eventually { await zed.pendingCount == 0 })
            }
            #expect(transport.log.map(\.operationID) == ["registerActivity"])
            #expect(try await setup.backend.activity(activity.id)?["userId"] as? String == "eve")
        }
    }
}
