import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

extension ServerMetrics {
    /// The value of an unlabelled metric in the Prometheus text (0 when absent).
    func value(_ name: String) -> Double {
        for line in render().split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)) ?? 0
        }
        return 0
    }
}

/// Webhook events: stored when they happen, POSTed signed, retried with the same event id, delivered
/// after a graceful restart or a crash, dropped past their maximum age.
@Suite struct WebhookWorkerTests {
    /// Registers activity `id` and has the app end it: one `activity.ended` event.
    private func endByApp(_ id: String, on harness: TestServer, token: String = String(repeating: "9f", count: 32)) async throws {
        #expect(try await harness.http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: id, token: token)).status == 201)
        #expect(try await harness.http.post("/v1/activities/\(id)/ended", key: TestServer.appKey, "").status == 200)
    }

    /// Registers `count` activities in `group` and ends the group: `count` events from one request.
    private func endGroup(_ group: String, count: Int, on harness: TestServer) async throws -> [String] {
        let ids = (1...count).map { "\(group)-\($0)" }
        for (index, id) in ids.enumerated() {
            let token = String(repeating: String(format: "%02x", index + 1), count: 32)
            let registration = registrationJSON(activityID: id, token: token, groups: [group])
            #expect(try await harness.http.post("/v1/activities", key: TestServer.appKey, registration).status == 201)
        }
        #expect(try await harness.http.post("/v1/groups/\(group)/end", key: TestServer.backendKey, "{}").status == 202)
        return ids
    }

    @Test(arguments: TestDatabase.available)
    func eachPostIsSignedAndVerifiesWithTheDocumentedSteps(_ database: TestStore) async throws {
        try await withWebhookReceiver { receiver in
            try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.useWebhook(receiver.url) }) { harness in
                try await endByApp("signed", on: harness)
                #expect(await eventually { receiver.bodies.count == 1 })
                let post = try #require(receiver.posts.first)
                #expect(post.contentType == "application/json")
                #expect(post.eventID.flatMap(UUID.init(uuidString:)) != nil, "LivePush-Event-Id is a UUID")
                #expect(post.json?["event"]?.stringValue == "activity.ended" && post.json?["activityId"]?.stringValue == "signed")
                #expect(throws: Never.self) {
                    try WebhookSignatureCheck.verify(header: post.signature, body: post.body, secret: TestServer.webhookSecret)
                }
                #expect(throws: WebhookSignatureCheck.Refusal.mismatch) {
                    try WebhookSignatureCheck.verify(header: post.signature, body: post.body, secret: String(repeating: "x", count: 36))
                }
                #expect(throws: WebhookSignatureCheck.Refusal.mismatch, "a changed body does not verify") {
                    try WebhookSignatureCheck.verify(header: post.signature, body: post.body + Data(" ".utf8), secret: TestServer.webhookSecret)
                }
                #expect(throws: WebhookSignatureCheck.Refusal.tooOld, "a replay after 5 minutes is refused") {
                    try WebhookSignatureCheck.verify(
                        header: post.signature, body: post.body, secret: TestServer.webhookSecret,
                        now: Date().addingTimeInterval(301))
                }
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aFailingReceiverGetsTheEventLaterWithTheSameEventID(_ database: TestStore) async throws {
        try await withWebhookReceiver(WebhookBehavior(failFirst: 3)) { receiver in
            try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.useWebhook(receiver.url) }) { harness in
                try await endByApp("retried", on: harness)
                #expect(await eventually { receiver.bodies.count == 1 })
                let posts = receiver.posts
                #expect(posts.map(\.status) == [503, 503, 503, 204])
                #expect(Set(posts.compactMap(\.eventID)).count == 1 && posts.allSatisfy { $0.eventID != nil }, "one event id on every attempt")
                #expect(posts.allSatisfy { $0.body == posts[0].body })
                for post in posts {
                    #expect(throws: Never.self) {
                        try WebhookSignatureCheck.verify(header: post.signature, body: post.body, secret: TestServer.webhookSecret)
                    }
                }
                #expect(try await eventually { try await harness.store.webhookDepth() == 0 })
                #expect(harness.server.metrics.value("livepush_server_webhook_failed_attempts_total") == 3)
                #expect(harness.server.metrics.value("livepush_server_webhook_delivered_total") == 1)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func eventsQueuedWhileTheReceiverIsDownAreDeliveredAfterAGracefulRestart(_ database: TestStore) async throws {
        let down = try await WebhookReceiver.downURL()
        try await withWebhookReceiver { receiver in
            try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.useWebhook(down) }) { harness in
                let ids = try await endGroup("down", count: 3, on: harness)
                #expect(
                    await eventually { harness.server.metrics.value("livepush_server_webhook_failed_attempts_total") >= 3 },
                    "each event was tried while the receiver was down")
                await harness.server.shutdown()
                #expect(try await harness.store.webhookDepth() == ids.count, "undelivered events stay stored")
                try await harness.restart { $0.useWebhook(receiver.url) }
                #expect(await eventually { receiver.bodies.count == ids.count })
                #expect(receiver.bodies.compactMap { $0["activityId"]?.stringValue }.sorted() == ids.sorted())
                #expect(try await eventually { try await harness.store.webhookDepth() == 0 })
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func eventsACrashedServerHeldAreDeliveredByItsSuccessor(_ database: TestStore) async throws {
        // The first server's POST hangs, so it holds the event's claim (for an hour and a minute) when it is
        // abandoned. Its successor, same instance id, takes the claim back at once and delivers.
        try await withWebhookReceiver(WebhookBehavior(hangs: true)) { hanging in
            try await withWebhookReceiver { receiver in
                let instance = "crash-" + UUID().uuidString.prefix(8).lowercased()
                try await withServer(
                    ServerOptions(store: database, sender: FakeSender()) {
                        $0.useWebhook(hanging.url)
                        $0.instanceID = instance
                        $0.claimLease = 3600
                        $0.webhookTimeout = 60
                    }
                ) { harness in
                    try await endByApp("crashed", on: harness)
                    #expect(await eventually { hanging.posts.count == 1 }, "the POST is under way")
                    try await harness.replaceWithoutShutdown {
                        $0.useWebhook(receiver.url)
                        $0.instanceID = instance
                        $0.claimLease = 3600
                    }
                    #expect(await eventually { receiver.bodies.count == 1 })
                    #expect(receiver.posts.first?.eventID != nil && receiver.posts.first?.eventID == hanging.posts.first?.eventID)
                    #expect(receiver.bodies.first?["activityId"]?.stringValue == "crashed")
                    #expect(try await eventually { try await harness.store.webhookDepth() == 0 })
                    hanging.stopHanging()  // the abandoned server's POST is answered: it stops at once
                }
            }
        }
    }

    @Test func eventsPastTheirMaximumAgeAreDroppedAndCounted() async throws {
        try await withWebhookReceiver(WebhookBehavior(failFirst: .max)) { receiver in
            let clock = ManualWallClock(Date())
            try await withServer(
                ServerOptions(sender: FakeSender(), clock: clock) {
                    $0.useWebhook(receiver.url)
                    $0.webhookMaximumAge = 3600
                }
            ) { harness in
                try await endByApp("old", on: harness)
                #expect(await eventually { receiver.posts.count == 1 })
                #expect(try await eventually { try await harness.store.webhookDepth() == 1 }, "kept for a retry")
                clock.advance(by: 3601)
                #expect(try await eventually { try await harness.store.webhookDepth() == 0 })
                #expect(receiver.bodies.isEmpty)
                #expect(harness.server.metrics.value("livepush_server_webhook_dropped_total") == 1)
                #expect(harness.server.metrics.value("livepush_server_webhook_delivered_total") == 0)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func withoutAWebhookURLNothingIsStored(_ database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            try await endByApp("quiet", on: harness)
            _ = try await endGroup("quiet-group", count: 2, on: harness)
            #expect(try await harness.store.webhookDepth() == 0)
        }
    }

    @Test func aWebhookURLWithoutASecretIsRefusedAtStart() async throws {
        var configuration = ServerConfiguration()
        configuration.webhookURL = URL(string: "https://backend.example.com/livepush")
        do {
            try configuration.validate()
            Issue.record("a webhook URL without a secret was accepted")
        } catch {
            #expect(error.setting == "webhookSecret")
            #expect(error.rule.contains("required with a webhook URL") && error.rule.contains("openssl rand -hex 32"), "\(error.rule)")
        }
        configuration.webhookSecret = "too-short"
        #expect(throws: ServerConfigurationError.self) { try configuration.validate() }
        configuration.webhookSecret = String(repeating: "a", count: 32)
        #expect(throws: Never.self) { try configuration.validate() }

        configuration.webhookSecret = nil
        try await withServer(ServerOptions(sender: FakeSender())) { running -> Void in
            // Its store serves the one that must not start.
            #expect(throws: ServerConfigurationError.self) {
                try LivePushServer(configuration: configuration, store: running.store, sender: FakeSender())
            }
        }

        let base = ["--url", "https://127.0.0.1:2197", "--webhook-url", "https://backend.example.com/livepush"]
        do {
            _ = try await ServeSettings.read(arguments: base, environment: [:])
            Issue.record("--webhook-url without --webhook-secret was accepted")
        } catch {
            #expect(error.description.hasPrefix("--webhook-secret is required with a webhook URL"), "\(error.description)")
        }
        do {
            _ = try await ServeSettings.read(arguments: base, environment: ["LIVEPUSH_WEBHOOK_SECRET": "short"])
            Issue.record("a short secret was accepted")
        } catch {
            #expect(error.description.hasPrefix("$LIVEPUSH_WEBHOOK_SECRET must have at least 32 characters"), "\(error.description)")
        }
        let secret = String(repeating: "0123456789abcdef", count: 4)
        let settings = try await ServeSettings.read(arguments: base, environment: ["LIVEPUSH_WEBHOOK_SECRET": secret])
        #expect(settings.server.webhookSecret == secret)
        let setting = try #require(ServeSetting.named("webhookSecret"))
        #expect(setting.isSecret && setting.flag == "--webhook-secret" && !setting.sources.contains(.file))
    }
}
