import APNsCore
import Foundation
import LivePushKit
import LivePushTesting
import Testing

/// The app's launches around push-to-start, through the simulated adapter: the token only the property
/// has, and an activity started by push while the app was not running.
// A hang guard, not a speed target: the time a test waits for a place in LivePushTesting's ScopeGate
// (behind an `.exclusive` suite, on a busy machine) counts against it.
@Suite(.timeLimit(.minutes(10)))
struct LaunchTests {
    @Test func aPushToStartTokenOnlyThePropertyHasReachesTheServer() async throws {
        try await withAppSetup(user: "fay") { setup in
            let transport = ForwardingTransport(target: setup.server.url)
            let reporter = try LivePushReporter(
                setup.configuration(transport: transport))
            // pushToStartTokenUpdates never yields on this launch: only the property has the token.
            let app = setup.apns.app(on: setup.iPhone, reportingTo: reporter, pushToStart: .propertyOnly)
            let rotated = try await whileRunning(reporter) {
                try await whileFollowing(app) {
                    #expect(await eventually { await reporter.status.pushToStartTokensStored == 1 })
                    // The iPhone rotates the token while the app runs; the stream says nothing.
                    let rotated = try await setup.apns.simulator.world.rotatePushToStartToken(deviceID: setup.iPhone.id)
                    // An activity started after the rotation is reported: its event came after the
                    // rotation's, so the adapter has seen (and, stream silent, skipped) that one.
                    _ = try await setup.startActivity()
                    #expect(await eventually { await reporter.status.activityTokensStored == 1 })
                    #expect(!transport.log.contains { $0.body.contains(rotated) })
                    // Back in the foreground the app reads the property: the rotated token goes out.
                    await app.enterForeground()
                    #expect(await eventually { transport.log.contains { !$0.failed && $0.body.contains(rotated) } })
                    #expect(await eventually { await reporter.pendingCount == 0 })
                    // Every foreground reads the property again: the same token is not sent twice.
                    await app.enterForeground()
                    await app.launch()
                    #expect(await reporter.pendingCount == 0)
                    return rotated
                }
            }
            let stores = transport.log.filter { $0.operationID == "storePushToStartToken" && !$0.failed }
            #expect(stores.count == 2 && stores.last?.body.contains(rotated) == true, "\(stores.map(\.body))")
            #expect(
                try await setup.backend.start(
                    user: "fay", attributesType: setup.apns.attributesTypes[0], attributes: [:], contentState: ReporterServerTests.state) == 202)
            #expect(await eventually { (try? await setup.apns.simulator.world.device(id: setup.iPhone.id).activities.count) == 2 })
        }
    }

    @Test func anActivityStartedByPushIsReportedAfterARelaunch() async throws {
        try await withAppSetup(user: "gus") { setup in
            let configuration = setup.configuration(transport: ForwardingTransport(target: setup.server.url))
            let first = try LivePushReporter(configuration)
            try await whileRunning(first) {
                await setup.apns.app(on: setup.iPhone, reportingTo: first).launch()
                #expect(await eventually { await first.pendingCount == 0 })
            }

            // The app is not running: the backend starts an activity by push; the iPhone makes its token.
            #expect(
                try await setup.backend.start(
                    user: "gus", attributesType: setup.apns.attributesTypes[0], attributes: [:], contentState: ReporterServerTests.state) == 202)
            #expect(await eventually { (try? await setup.apns.simulator.world.device(id: setup.iPhone.id).activities.first?.pushToken) != nil })
            let started = try #require(try await setup.apns.simulator.world.device(id: setup.iPhone.id).activities.first)
            #expect(try await setup.backend.activity(started.activityID) == nil)

            // Relaunch: the running activities (Activity.activities) are reported, and the server can update it.
            let second = try LivePushReporter(configuration)
            try await whileRunning(second) {
                await setup.apns.app(on: setup.iPhone, reportingTo: second).launch()
                #expect(await eventually { await second.pendingCount == 0 })
            }
            #expect(try await setup.backend.activity(started.activityID)?["userId"] as? String == "gus")
            #expect(try await setup.updateReaches(started.activityID, event: "onward"))
        }
    }

    @Test func anActivityStartedByPushWhileTheAppRunsIsReported() async throws {
        try await withAppSetup(user: "ivy") { setup in
            let reporter = try LivePushReporter(
                setup.configuration(transport: ForwardingTransport(target: setup.server.url)))
            let started = try await whileRunning(reporter) {
                try await whileFollowing(setup.apns.app(on: setup.iPhone, reportingTo: reporter)) {
                    #expect(await eventually { await reporter.status.pushToStartTokensStored == 1 })
                    // The backend starts an activity by push; the iPhone issues its token, which
                    // activityUpdates and pushTokenUpdates hand to the running app.
                    #expect(
                        try await setup.backend.start(
                            user: "ivy", attributesType: setup.apns.attributesTypes[0], attributes: [:],
                            contentState: ReporterServerTests.state) == 202)
                    #expect(await eventually { await reporter.status.activityTokensStored == 1 })
                    #expect(await eventually { await reporter.pendingCount == 0 })
                    return try #require(try await setup.apns.simulator.world.device(id: setup.iPhone.id).activities.first)
                }
            }
            let stored = try #require(try await setup.backend.activity(started.activityID))
            #expect(stored["userId"] as? String == "ivy")
            #expect(try await setup.updateReaches(started.activityID, event: "ambush"))
        }
    }
}
