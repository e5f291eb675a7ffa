import APNsCore
import Foundation
import LivePushKit
import LivePushTesting
import Testing

/// LivePushKit's reporter against a real `livepush serve` over the simulator, on real sockets: what the
/// app hands over reaches the server whatever the network, the server and the app's process do.
@Suite(.timeLimit(.minutes(2)))
struct ReporterServerTests {
    static var state: [String: Any] { ["currentHealthLevel": 1, "eventDescription": "Adventure has begun!"] }

    @Test func theServerDownAtFirstThenUpLosesNothing() async throws {
        try await withTemporaryDirectory { directory in
            try await withSimulator { apns in
                try await withServer(over: apns) { server in
                    let backend = Backend(server: server)
                    let tokens = UserTokens(backend: backend, userID: "ava")
                    let iPhone = try await apns.addIPhone()
                    let activity = try await apns.startActivity(on: iPhone, contentState: ["currentHealthLevel": 1, "eventDescription": "go"])
                    // The app's server is down: every connection is refused.
                    let transport = ForwardingTransport(target: try closedLoopbackURL())
                    let reporter = try LivePushReporter(
                        kitConfiguration(
                            directory: directory, bundleID: apns.bundleID, credential: .userToken { try await tokens.token(renew: $0) },
                            transport: transport, deviceID: iPhone.id))
                    try await whileRunning(reporter) {
                        await apns.app(on: iPhone, reportingTo: reporter).launch()
                        #expect(await eventually { transport.log.count(where: \.failed) >= 3 })
                        #expect(await reporter.pendingCount == 2)

                        transport.retarget(server.url)
                        #expect(await eventually { await reporter.pendingCount == 0 })
                    }
                    let stored = try #require(try await backend.activity(activity.id))
                    #expect(stored["pushToken"] as? String == DeviceToken.shorten(activity.pushToken))
                    #expect(stored["userId"] as? String == "ava")
                    // The push-to-start token reached it too: the backend starts an activity on the iPhone with it.
                    #expect(
                        try await backend.start(user: "ava", attributesType: apns.attributesTypes[0], attributes: [:], contentState: Self.state)
                            == 202)
                    #expect(await eventually { (try? await apns.simulator.world.device(id: iPhone.id).activities.count) == 2 })
                }
            }
        }
    }

    @Test func aRelaunchSendsWhatTheJournalHolds() async throws {
        try await withTemporaryDirectory { directory in
            try await withSimulator { apns in
                try await withServer(over: apns) { server in
                    let backend = Backend(server: server)
                    let tokens = UserTokens(backend: backend, userID: "ben")
                    let iPhone = try await apns.addIPhone()
                    let activity = try await apns.startActivity(on: iPhone, contentState: ["currentHealthLevel": 1, "eventDescription": "go"])
                    let credential = LivePushCredential.userToken { try await tokens.token(renew: $0) }

                    // First launch: no network; the process ends with both reports pending.
                    let offline = ForwardingTransport(target: server.url)
                    offline.setFailing(true)
                    let first = try LivePushReporter(
                        kitConfiguration(
                            directory: directory, bundleID: apns.bundleID, credential: credential, transport: offline, deviceID: iPhone.id))
                    try await whileRunning(first) {
                        await apns.app(on: iPhone, reportingTo: first).launch()
                        #expect(await eventually { offline.log.contains(where: \.failed) })
                    }
                    #expect(await first.pendingCount == 2)

                    // Relaunch, online: the journal alone says what to send; no event is given again.
                    let online = ForwardingTransport(target: server.url)
                    let second = try LivePushReporter(
                        kitConfiguration(directory: directory, bundleID: apns.bundleID, credential: credential, transport: online))
                    #expect(await second.pendingCount == 2)
                    #expect(await second.deviceID == iPhone.id)
                    try await whileRunning(second) {
                        #expect(await eventually { await second.pendingCount == 0 })
                    }
                    #expect(try await backend.activity(activity.id)?["pushToken"] as? String == DeviceToken.shorten(activity.pushToken))
                    #expect(Set(online.log.map(\.operationID)) == ["registerActivity", "storePushToStartToken"])
                }
            }
        }
    }

    @Test func aRotatedTokenArrivingWhileTheOlderIsRetriedWins() async throws {
        try await withTemporaryDirectory { directory in
            try await withSimulator { apns in
                try await withServer(over: apns) { server in
                    let backend = Backend(server: server)
                    let tokens = UserTokens(backend: backend, userID: "cal")
                    let iPhone = try await apns.addIPhone()
                    let activity = try await apns.startActivity(on: iPhone, contentState: ["currentHealthLevel": 1, "eventDescription": "go"])
                    let older = String(repeating: "ab", count: 32)
                    let transport = ForwardingTransport(target: server.url)
                    transport.setFailing(true)
                    let reporter = try LivePushReporter(
                        kitConfiguration(
                            directory: directory, bundleID: apns.bundleID, credential: .userToken { try await tokens.token(renew: $0) },
                            transport: transport))
                    try await whileRunning(reporter) {
                        await reporter.activityToken(
                            PushToken(hex: older)!, activityID: activity.id, attributesType: apns.attributesTypes[0], groups: [])
                        #expect(await eventually { transport.log.contains { $0.failed && $0.body.contains(older) } })
                        // ActivityKit rotates the token while the first registration is being retried.
                        await reporter.activityToken(
                            PushToken(hex: activity.pushToken)!, activityID: activity.id, attributesType: apns.attributesTypes[0], groups: [])
                        #expect(await eventually { transport.log.contains { $0.failed && $0.body.contains(activity.pushToken) } })
                        transport.setFailing(false)
                        #expect(await eventually { await reporter.pendingCount == 0 })
                    }
                    // Once the newer token was in the journal, the older one was never sent again.
                    let log = transport.log
                    let firstNewer = try #require(log.firstIndex { $0.body.contains(activity.pushToken) })
                    #expect(!log[firstNewer...].contains { $0.body.contains(older) })
                    #expect(try await backend.activity(activity.id)?["pushToken"] as? String == DeviceToken.shorten(activity.pushToken))
                    // And the server pushes to the newer token: the iPhone shows the update.
                    #expect(
                        try await backend.update(activity: activity.id, contentState: ["currentHealthLevel": 0.5, "eventDescription": "hit"]) == 202)
                    #expect(await eventually { (try? await apns.contentState(of: activity))?["eventDescription"]?.stringValue == "hit" })
                }
            }
        }
    }

    @Test func anExpiredUserTokenIsRenewedOn401() async throws {
        let clock = ManualWallClock(Date())
        try await withTemporaryDirectory { directory in
            try await withSimulator { apns in
                try await withServer(ServerOptions(clock: clock), over: apns) { server in
                    let backend = Backend(server: server)
                    let tokens = UserTokens(backend: backend, userID: "dee", ttl: 60)
                    let iPhone = try await apns.addIPhone()
                    let activity = try await apns.startActivity(on: iPhone, contentState: ["currentHealthLevel": 1, "eventDescription": "go"])
                    let transport = ForwardingTransport(target: server.url)
                    let reporter = try LivePushReporter(
                        kitConfiguration(
                            directory: directory, bundleID: apns.bundleID, credential: .userToken { try await tokens.token(renew: $0) },
                            transport: transport))
                    try await whileRunning(reporter) {
                        await reporter.activityToken(
                            PushToken(hex: activity.pushToken)!, activityID: activity.id, attributesType: apns.attributesTypes[0], groups: [])
                        #expect(await eventually { await reporter.pendingCount == 0 })
                        // A minute later the token has expired; the next report is answered 401 and the app is asked again.
                        clock.advance(by: 120)
                        await reporter.activityEnded(activityID: activity.id, .ended(dismissalDate: nil))
                        #expect(await eventually { await reporter.pendingCount == 0 })
                    }
                    #expect(await tokens.renewals == 1)
                    #expect(await tokens.issued == 2)
                    #expect(try await backend.activity(activity.id)?["state"] as? String == "ended")
                }
            }
        }
    }

    @Test func anInstallationIsOpenedOnceAndKeptAcrossLaunches() async throws {
        try await withTemporaryDirectory { directory in
            try await withSimulator { apns in
                try await withServer(over: apns) { server in
                    let iPhone = try await apns.addIPhone()
                    let activity = try await apns.startActivity(on: iPhone, contentState: ["currentHealthLevel": 1, "eventDescription": "go"])
                    let transport = ForwardingTransport(target: server.url)
                    let configuration = kitConfiguration(
                        directory: directory, bundleID: apns.bundleID, credential: .installation(appKey: server.appKey), transport: transport,
                        deviceID: iPhone.id)
                    let first = try LivePushReporter(configuration)
                    try await whileRunning(first) {
                        await apns.app(on: iPhone, reportingTo: first).launch()
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
                    let stored = try #require(try await Backend(server: server).activity(activity.id))
                    #expect(stored["userId"] as? String == installation)
                    #expect(stored["state"] as? String == "dismissed")
                }
            }
        }
    }

    @Test func aRefusalNamingAFieldIsNotRetried() async throws {
        try await withTemporaryDirectory { directory in
            try await withSimulator { apns in
                try await withServer(over: apns) { server in
                    let backend = Backend(server: server)
                    let owner = UserTokens(backend: backend, userID: "eve")
                    let other = UserTokens(backend: backend, userID: "zed")
                    let iPhone = try await apns.addIPhone()
                    let activity = try await apns.startActivity(on: iPhone, contentState: ["currentHealthLevel": 1, "eventDescription": "go"])
                    let type = apns.attributesTypes[0]
                    let token = PushToken(hex: activity.pushToken)!
                    let eve = try LivePushReporter(
                        kitConfiguration(
                            directory: directory.appendingPathComponent("eve"), bundleID: apns.bundleID,
                            credential: .userToken { try await owner.token(renew: $0) }, transport: ForwardingTransport(target: server.url)))
                    try await whileRunning(eve) {
                        await eve.activityToken(token, activityID: activity.id, attributesType: type, groups: [])
                        #expect(await eventually { await eve.pendingCount == 0 })
                    }
                    // Another user's app registers the same activity id: 409 taken (field activityId), not retried.
                    let transport = ForwardingTransport(target: server.url)
                    let zed = try LivePushReporter(
                        kitConfiguration(
                            directory: directory.appendingPathComponent("zed"), bundleID: apns.bundleID,
                            credential: .userToken { try await other.token(renew: $0) }, transport: transport))
                    try await whileRunning(zed) {
                        await zed.activityToken(token, activityID: activity.id, attributesType: type, groups: [])
                        #expect(await eventually { await zed.pendingCount == 0 })
                        // One the contract refuses (an id over 128 characters) is not even sent.
                        await zed.activityToken(token, activityID: String(repeating: "x", count: 200), attributesType: type, groups: [])
                        #expect(await eventually { await zed.pendingCount == 0 })
                    }
                    #expect(transport.log.map(\.operationID) == ["registerActivity"])
                    #expect(try await backend.activity(activity.id)?["userId"] as? String == "eve")
                }
            }
        }
    }
}
