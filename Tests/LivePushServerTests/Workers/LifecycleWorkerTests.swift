import APNsClient
import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The 8-hour limit, forgetting ended activities, the webhook, the app ending its activity, and a
/// graceful stop with a push in flight.
@Suite struct LifecycleWorkerTests {
    let token = String(repeating: "9f", count: 32)

    @Test func webhookEventsLeftAtShutdownAreDeliveredAfterRestart() async throws {
        // A slow backend (200 ms an answer), two POSTs at a time and eight activities ended at once: when
        // the server is told to stop, most events are still queued. Shutdown finishes the two in flight;
        // the others stay stored and the next run delivers them.
        try await withWebhookReceiver(WebhookBehavior(delay: .milliseconds(200))) { receiver in
            try await withServer(
                ServerOptions(sender: FakeSender()) {
                    $0.useWebhook(receiver.url)
                    $0.webhookConcurrency = 2
                }
            ) { harness in
                let ids = (1...8).map { "w\($0)" }
                for (index, id) in ids.enumerated() {
                    let token = String(repeating: String(format: "%02x", index + 1), count: 32)
                    let registration = registrationJSON(activityID: id, token: token, groups: ["hook"])
                    #expect(try await harness.http.post("/v1/activities", key: TestServer.appKey, registration).status == 201)
                }
                #expect(try await harness.http.post("/v1/groups/hook/end", key: TestServer.backendKey, "{}").status == 202)
                // The eight events are stored together, with the page that ends the eight activities: once one
                // is stored or POSTed, all are. (A busy machine may not have sent that page yet when the 202
                // returns; shut down then, there would be no event to leave stored.)
                #expect(try await eventually { try await harness.store.webhookDepth() > 0 || !receiver.bodies.isEmpty })
                await harness.server.shutdown()
                let early = receiver.bodies.count
                #expect(early < ids.count, "the events are still queued when shutdown starts")
                #expect(receiver.posts.allSatisfy { $0.status != nil }, "the POSTs in flight were finished")
                #expect(try await harness.store.webhookDepth() == ids.count - early, "the others are still stored")
                try await harness.restart()
                #expect(await eventually { receiver.bodies.count == ids.count })
                let delivered = receiver.bodies.compactMap { $0["activityId"]?.stringValue }
                #expect(delivered.sorted() == ids.sorted())
                #expect(receiver.bodies.allSatisfy { $0["event"]?.stringValue == "activity.ended" && $0["reason"]?.stringValue == "backend" })
            }
        }
    }

    @Test func overAgeActivityWhoseEndWouldBeTooLargeIsStillEnded() async throws {
        // A last state that fits an update (4096 bytes) but not an end, which adds dismissal-date.
        let clock = ManualWallClock(Date())
        let now = clock.now()
        let text = try #require(
            (3_900...4_096).map { String(repeating: "x", count: $0) }.first { text in
                let state: JSONValue = ["t": .string(text)]
                return LiveActivityPayload.update(contentState: state, timestamp: now).encoded().count <= 4_096
                    && LiveActivityPayload.end(contentState: state, dismissalDate: now + 4 * 3600, timestamp: now).encoded().count > 4_096
            }.map { $0 })
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender, clock: clock)) { harness in
            #expect(
                try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "big", token: token)).status == 201
            )
            let update = try await harness.http.post("/v1/activities/big/update", key: TestServer.backendKey, #"{"contentState":{"t":"\#(text)"}}"#)
            #expect(update.status == 202, "\(update.text)")
            #expect(await eventually { sender.requests.count == 1 })
            clock.advance(by: 8 * 3600 + 1)
            #expect(await harness.server.sweepLifecycle().ended == 1, "ended without an end push rather than never")
            #expect(try await harness.store.activity(id: "big")?.state == .ended)
            #expect(sender.requests.count == 1)
        }
    }

    @Test func overAgeActivityIsEndedWithItsLastStateThenForgotten() async throws {
        try await withWebhookReceiver { receiver in
            let clock = ManualWallClock(Date())
            let sender = FakeSender()
            try await withServer(
                ServerOptions(sender: sender, clock: clock) {
                    $0.useWebhook(receiver.url)
                }
            ) { harness in
                #expect(
                    try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "old", token: token)).status
                        == 201)
                #expect(
                    try await harness.http.post("/v1/activities/old/update", key: TestServer.backendKey, #"{"contentState":{"hp":5}}"#).status == 202)
                #expect(await eventually { sender.requests.count == 1 })

                clock.advance(by: 7 * 3600)
                #expect(await harness.server.sweepLifecycle().ended == 0)
                clock.advance(by: 3600 + 1)
                #expect(await harness.server.sweepLifecycle().ended == 1)
                #expect(try await harness.store.activity(id: "old")?.state == .ended)
                #expect(await eventually { sender.requests.count == 2 })
                let end = try JSONValue.parse(try #require(sender.requests.last).body)
                #expect(end["aps"]?["event"]?.stringValue == "end")
                #expect(end["aps"]?["content-state"]?["hp"]?.numberValue == 5)
                #expect(
                    await eventually {
                        receiver.bodies.contains { $0["event"]?.stringValue == "activity.ended" && $0["reason"]?.stringValue == "maximumDuration" }
                    })

                #expect(try await eventually { try await harness.store.outboxDepth() == 0 })
                // The end push's dismissal date is 4 hours on: then the activity is dismissed, an hour later forgotten.
                clock.advance(by: 4 * 3600 - 60)
                #expect(await harness.server.sweepLifecycle().dismissed == 0)
                clock.advance(by: 60)
                let dismissedSweep = await harness.server.sweepLifecycle()
                #expect(dismissedSweep.dismissed == 1 && dismissedSweep.forgotten == 0)
                let dismissed = try await harness.http.get("/v1/activities/old", key: TestServer.backendKey)
                #expect(dismissed.json?["activity"]?["state"]?.stringValue == "dismissed")
                clock.advance(by: 3600 + 1)
                #expect(await harness.server.sweepLifecycle().forgotten == 1)
                let gone = try await harness.http.get("/v1/activities/old", key: TestServer.backendKey)
                #expect(gone.status == 404)
            }
        }
    }

    /// The sweep's end push wakes an idle worker like an API request does: sent long before a 60 s poll.
    @Test func theSweepsEndPushIsSentWithoutWaitingForThePoll() async throws {
        let clock = ManualWallClock(Date())
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender, clock: clock) { $0.pollInterval = 60 }) { harness in
            #expect(
                try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "old", token: token)).status == 201
            )
            #expect(try await harness.http.post("/v1/activities/old/update", key: TestServer.backendKey, #"{"contentState":{"hp":5}}"#).status == 202)
            #expect(await eventually(timeout: .seconds(30)) { sender.requests.count == 1 })
            try await Task.sleep(for: .milliseconds(300))  // the workers are waiting again
            clock.advance(by: 8 * 3600 + 1)
            let started = Date()
            #expect(await harness.server.sweepLifecycle().ended == 1)
            #expect(await eventually(timeout: .seconds(30)) { sender.requests.count == 2 })
            #expect(Date().timeIntervalSince(started) < 30, "sent after the wake-up, not the 60 s poll")
        }
    }

    @Test func invalidTokenAndAppEndAreReportedToTheWebhook() async throws {
        try await withWebhookReceiver { receiver in
            let sender = FakeSender()
            sender.enqueue([.success(APNsResponse(status: 400, reason: .badDeviceToken))])
            try await withServer(ServerOptions(sender: sender) { $0.useWebhook(receiver.url) }) { harness in
                #expect(
                    try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "w1", token: token)).status
                        == 201)
                #expect(
                    try await harness.http.post("/v1/activities/w1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
                #expect(await eventually { receiver.bodies.contains { $0["event"]?.stringValue == "token.invalid" } })
                let event = try #require(receiver.bodies.first { $0["event"]?.stringValue == "token.invalid" })
                #expect(event["activityId"]?.stringValue == "w1" && event["reason"]?.stringValue == "BadDeviceToken")
                #expect(event["token"]?.stringValue == "9f9f…9f9f", "tokens are shortened in webhooks")

                let other = String(repeating: "8e", count: 32)
                #expect(
                    try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "w2", token: other)).status
                        == 201)
                let ended = try await harness.http.post("/v1/activities/w2/ended", key: TestServer.appKey, "")
                #expect(ended.status == 200 && ended.json?["state"]?.stringValue == "ended")
                #expect(
                    await eventually {
                        receiver.bodies.contains {
                            $0["event"]?.stringValue == "activity.ended" && $0["activityId"]?.stringValue == "w2"
                                && $0["reason"]?.stringValue == "app"
                        }
                    })
            }
        }
    }

    /// ActivityKit's `.dismissed`, reported by the app: the activity is dismissed (an active one also
    /// counts as ended for the webhook) and takes no more pushes.
    @Test func appReportsItsActivityDismissed() async throws {
        try await withWebhookReceiver { receiver in
            try await withServer(ServerOptions(sender: FakeSender()) { $0.useWebhook(receiver.url) }) { harness in
                #expect(
                    try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "d1", token: token)).status
                        == 201)

                let byBackend = try await harness.http.post("/v1/activities/d1/dismissed", key: TestServer.backendKey, "")
                #expect(byBackend.status == 403 && byBackend.errorRule == "scope")
                let withField = try await harness.http.post("/v1/activities/d1/dismissed", key: TestServer.appKey, #"{"dismissalDate":"+1h"}"#)
                #expect(withField.status == 400 && withField.errorField == "dismissalDate" && withField.errorRule == "unknown")
                let unknown = try await harness.http.post("/v1/activities/nobody/dismissed", key: TestServer.appKey, "")
                #expect(unknown.status == 404 && unknown.errorField == "activityId")

                let dismissed = try await harness.http.post("/v1/activities/d1/dismissed", key: TestServer.appKey, "{}")
                #expect(dismissed.status == 200 && dismissed.json?["state"]?.stringValue == "dismissed")
                #expect(dismissed.json?["endedAt"]?.stringValue != nil)
                #expect(
                    await eventually {
                        receiver.bodies.contains {
                            $0["event"]?.stringValue == "activity.ended" && $0["activityId"]?.stringValue == "d1"
                                && $0["reason"]?.stringValue == "app"
                        }
                    })
                let update = try await harness.http.post("/v1/activities/d1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
                #expect(update.status == 409 && update.errorRule == "active")
            }
        }
    }

    @Test func gracefulStopFinishesThePushInFlight() async throws {
        let sender = SlowSender(delay: .milliseconds(400))
        try await withServer(ServerOptions(sender: sender)) { harness in
            #expect(
                try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "s1", token: token)).status == 201)
            let accepted = try await harness.http.post("/v1/activities/s1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
            #expect(accepted.status == 202)
            #expect(await eventually { sender.started >= 1 })
            await harness.server.shutdown()
            let history = try await harness.store.deliveries(activityID: "s1", limit: 5)
            #expect(history.count == 1 && history.first?.outcome == .accepted)
            #expect(try await harness.store.outboxDepth() == 0)
        }
    }
}

/// Answers 200 after a delay; counts the calls that started.
final class SlowSender: PushSending, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let delay: Duration

    init(delay: Duration) { self.delay = delay }

    var started: Int { lock.withLock { count } }

    func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome {
        lock.withLock { count += 1 }
        try? await Task.sleep(for: delay)
        return APNsDeliveryOutcome(result: .success(APNsResponse(status: 200, apnsID: "slow")), attempts: 1, duration: delay)
    }
}
