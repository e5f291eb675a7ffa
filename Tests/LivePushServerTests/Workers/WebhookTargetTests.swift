import Foundation
import LivePushTesting
import Logging
import NIOCore
import PushStore
import Testing

@testable import LivePushServer

/// Where the webhook may POST: redirects are never followed, and loopback, private, link-local and
/// metadata addresses are refused unless `webhookAllowPrivateTargets` allows them.
@Suite struct WebhookTargetTests {
    private func refusal(_ literal: String) throws -> String? {
        WebhookTargetPolicy.refusal(for: try SocketAddress(ipAddress: literal, port: 443))
    }

    @Test(arguments: [
        "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "100.100.100.200", "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.0.192",
        "::1", "::", "fc00::1", "fd00:ec2::254", "fe80::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
        "64:ff9b::a00:1", "2002:c0a8:101::1",
    ])
    func forbiddenAddressesAreRefused(_ literal: String) throws {
        #expect(try refusal(literal) != nil, "\(literal)")
    }

    @Test(arguments: ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:8.8.8.8"])
    func publicAddressesAreAllowed(_ literal: String) throws {
        #expect(try refusal(literal) == nil, "\(literal)")
    }

    @Test func aLiteralForbiddenURLIsRefusedAtStartUnlessAllowed() throws {
        for url in [
            "http://127.0.0.1:8080/hook", "https://169.254.169.254/latest", "http://[::1]/hook", "http://localhost:9000/hook",
            "http://10.0.0.5/hook",
        ] {
            var configuration = ServerConfiguration()
            configuration.webhookURL = URL(string: url)
            configuration.webhookSecret = String(repeating: "s", count: 32)
            do {
                try configuration.validate()
                Issue.record("\(url) was accepted")
            } catch {
                #expect(error.setting == "webhookUrl")
                #expect(error.rule.contains("--webhook-allow-private-targets"), "\(error.rule)")
            }
            configuration.webhookAllowPrivateTargets = true
            #expect(throws: Never.self) { try configuration.validate() }
        }
        var configuration = ServerConfiguration()
        configuration.webhookURL = URL(string: "https://hooks.example.com/livepush")
        configuration.webhookSecret = String(repeating: "s", count: 32)
        #expect(throws: Never.self) { try configuration.validate() }
    }

    @Test func theSettingIsReadFromItsFlagAloneOrWithAValueAndFromItsVariable() async throws {
        let base = ["--environment", "sandbox", "--webhook-url", "http://127.0.0.1:9/hook"]
        let secret = ["LIVEPUSH_WEBHOOK_SECRET": String(repeating: "s", count: 32)]
        #expect(
            try await ServeSettings.read(arguments: base + ["--webhook-allow-private-targets"], environment: secret)
                .server.webhookAllowPrivateTargets)
        #expect(
            try await ServeSettings.read(arguments: base + ["--webhook-allow-private-targets=true"], environment: secret)
                .server.webhookAllowPrivateTargets)
        var environment = secret
        environment["LIVEPUSH_WEBHOOK_ALLOW_PRIVATE_TARGETS"] = "true"
        #expect(try await ServeSettings.read(arguments: base, environment: environment).server.webhookAllowPrivateTargets)
        await #expect(throws: ServerConfigurationError.self) {
            _ = try await ServeSettings.read(arguments: base + ["--webhook-allow-private-targets=maybe"], environment: secret)
        }
    }

    /// A name that resolves to loopback is refused when the POST is made (the literal check at start
    /// cannot see it), counted, and reaches nobody; allowed, the same POST is delivered.
    @Test func aNameResolvingToLoopbackIsRefusedAtEachPost() async throws {
        try await withWebhookReceiver { receiver in
            let url = try #require(URL(string: "http://localhost:\(receiver.port)/hook"))
            let metrics = ServerMetrics()
            let delivery = WebhookDelivery(event: "activity.ended", body: Data(#"{"event":"activity.ended"}"#.utf8), createdAt: Date())
            await WebhookPoster.withPoster(
                url: url, secret: TestServer.webhookSecret, timeout: 5, allowPrivateTargets: false,
                metrics: metrics, logger: Logger(label: "test")
            ) { refusing in
                let failure = await refusing.post(delivery, at: Date())
                #expect(failure?.contains("refused") == true, "\(failure ?? "delivered")")
            }
            #expect(metrics.value("livepush_server_webhook_refused_targets_total") == 1)
            #expect(receiver.posts.isEmpty)

            await WebhookPoster.withPoster(
                url: url, secret: TestServer.webhookSecret, timeout: 5, allowPrivateTargets: true,
                metrics: metrics, logger: Logger(label: "test")
            ) { allowing in
                #expect(await allowing.post(delivery, at: Date()) == nil)
            }
            #expect(receiver.bodies.count == 1)
        }
    }

    /// A receiver that answers 307 (or 302) does not get the event delivered elsewhere: the redirect is a
    /// failed attempt, retried at the configured URL, and the target of the redirect sees nothing.
    @Test(arguments: [307, 302])
    func redirectsAreFailedAttemptsAndNeverFollowed(_ code: Int) async throws {
        try await withWebhookReceiver { elsewhere in
            let redirect = (status: code, location: elsewhere.url.absoluteString, count: 2)
            try await withWebhookReceiver(WebhookBehavior(redirect: redirect)) { redirecting in
                try await withServer(ServerOptions(sender: FakeSender()) { $0.useWebhook(redirecting.url) }) { harness throws in
                    let id = "redirected-\(code)"
                    #expect(
                        try await harness.http.post(
                            "/v1/activities", key: TestServer.appKey,
                            registrationJSON(activityID: id, token: String(repeating: "9f", count: 32))
                        ).status == 201)
                    #expect(try await harness.http.post("/v1/activities/\(id)/ended", key: TestServer.appKey, "").status == 200)
                    #expect(await eventually { redirecting.bodies.count == 1 }, "delivered at the third attempt")
                    #expect(redirecting.posts.map(\.status) == [code, code, 204])
                    #expect(Set(redirecting.posts.compactMap(\.eventID)).count == 1, "one event, retried")
                    #expect(redirecting.posts.allSatisfy { !$0.body.isEmpty }, "each attempt carries the event")
                    #expect(elsewhere.posts.isEmpty, "the redirect was followed")
                    #expect(harness.server.metrics.value("livepush_server_webhook_failed_attempts_total") == 2)
                }
            }
        }
    }
}
