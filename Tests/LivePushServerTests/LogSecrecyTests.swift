import Foundation
import LivePushServer
import LivePushTesting
import Logging
import PushStore
import Synchronization
import Testing

/// Everything the server logs, at trace level, while it is handed every kind of secret: API keys,
/// user and installation tokens (good, forged and for another user), the token-signing and webhook
/// secrets, and push tokens. None of them may appear in a log line; push tokens only shortened.
@Suite struct LogSecrecyTests {
    /// Keeps every log line (level, message, metadata and source) as text.
    final class Capture: Sendable {
        private let lines = Mutex<[String]>([])
        var text: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }

        var logger: Logger {
            var logger = Logger(label: "livepush.test.capture") { label in Handler(label: label, capture: self) }
            logger.logLevel = .trace
            return logger
        }

        struct Handler: LogHandler {
            let label: String
            let capture: Capture
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
                let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                capture.append("\(event.level) \(label) [\(event.source)] \(event.message) \(rendered)")
            }
        }
    }

    static let tokenSecret = "log-secrecy-signing-secret-0123456789abcdef"

    @Test(arguments: TestDatabase.available)
    func noSecretOrFullPushTokenIsEverLogged(database: TestStore) async throws {
        let capture = Capture()
        let sender = FakeSender()
        // A webhook receiver that refuses connections: its failures are logged, its secret must not be.
        let (secrets, userToken) = try await withServer(
            ServerOptions(store: database, sender: sender, logger: capture.logger) {
                $0.appTokenSecret = Self.tokenSecret
                $0.useWebhook(URL(string: "http://127.0.0.1:9/hooks")!)
            }
        ) { harness -> ([(String, String)], String) in
            let http = harness.http
            let pushToken = IdentityTests.hex(0xAB)
            let startToken = IdentityTests.hex(0xCD)

            // A user token, used to register, rotate, update and end.
            let userToken = try await harness.mintUserToken("rider")
            let registered = try await http.post(
                "/v1/activities", key: userToken, registrationJSON(activityID: "ride", token: pushToken, userID: "rider"))
            #expect(registered.status == 201, "\(registered.text)")
            let rotatedToken = IdentityTests.hex(0xEF)
            #expect(try await http.put("/v1/activities/ride/push-token", key: userToken, #"{"pushToken":"\#(rotatedToken)"}"#).status == 200)
            #expect(
                try await http.put(
                    "/v1/push-to-start-tokens", key: userToken,
                    #"""
                    {"userId":"rider","deviceId":"phone","bundleId":"com.example.rangers","attributesType":"T","environment":"sandbox","token":"\#(startToken)"}
                    """#
                ).status == 200)
            #expect(try await http.post("/v1/activities/ride/update", key: TestServer.backendKey, #"{"contentState":{"km":1}}"#).status == 202)
            #expect(await eventually { sender.requests.count == 1 })
            #expect(try await http.request("POST", "/v1/activities/ride/ended", key: userToken).status == 200)

            // An installation opened with a stored app key.
            let storedAppKey = "lp_app_" + String(repeating: "s", count: 43)
            _ = try await harness.store.createAPIKey(name: "app", scope: .app, sha256Hash: APIKeys.hash(storedAppKey), at: Date())
            let installation = try await http.request("POST", "/v1/installations", key: storedAppKey)
            #expect(installation.status == 201, "\(installation.text)")
            let installationToken = try #require(installation.json?["token"]?.stringValue)

            // Refused credentials: a forged token, another user's token on this user's data, a wrong key.
            let forged = userToken.dropLast(4) + "AAAA"
            #expect(try await http.get("/v1/activities/ride", key: String(forged)).status == 401)
            let otherToken = try await harness.mintUserToken("someone-else")
            #expect(try await http.request("POST", "/v1/activities/ride/ended", key: otherToken).status == 404)
            let wrongKey = "lp_backend_" + String(repeating: "w", count: 43)
            #expect(try await http.post("/v1/groups/g/update", key: wrongKey, #"{"contentState":{}}"#).status == 401)
            // The development key, whose use the log announces.
            #expect(
                try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "dev", token: IdentityTests.hex(0x11)))
                    .status == 201)
            // Let the webhook try and fail at least once.
            #expect(
                await eventually { capture.text.contains { $0.contains("webhook POST failed") } },
                "a failed webhook delivery is logged")
            let secrets: [(String, String)] = [
                ("the development app key", TestServer.appKey), ("the backend key", TestServer.backendKey),
                ("a stored app key", storedAppKey), ("a refused key", wrongKey),
                ("a user token", userToken), ("another user's token", otherToken), ("a forged token", String(forged)),
                ("an installation token", installationToken), ("the token-signing secret", Self.tokenSecret),
                ("the webhook secret", TestServer.webhookSecret),
                ("a push token", pushToken), ("a rotated push token", rotatedToken), ("a push-to-start token", startToken),
            ]
            return (secrets, userToken)
        }

        let lines = capture.text
        #expect(lines.count > 10, "the server logged at trace level: \(lines.count) lines")
        #expect(
            lines.contains { $0.hasPrefix("notice") && $0.contains("development app keys in use") },
            "the log says development keys act for any user")
        for (name, secret) in secrets {
            let leaks = lines.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(name) appears in \(leaks.count) log lines, e.g. \(leaks.first ?? "")")
        }
        // A token's signature is its secret part: not even that alone.
        let signature = try #require(userToken.split(separator: ".").last)
        #expect(!lines.contains { $0.contains(signature) }, "a user token's signature is logged")
    }
}
