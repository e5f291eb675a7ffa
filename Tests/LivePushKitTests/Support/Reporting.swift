import Foundation
import LivePushKit
import LivePushTesting
import Logging

/// The bundle id and attributes type of the simulated iPhones' app.
enum TestApp {
    static let attributesType = "AdventureAttributes"
}

/// A reporter's configuration for the tests: journal in `directory`, a short backoff so that retries
/// happen within a test, the transport `transport`.
func kitConfiguration(
    directory: URL, bundleID: String, credential: LivePushCredential, transport: ForwardingTransport, deviceID: String? = nil
) -> LivePushConfiguration {
    var logger = Logger(label: "livepush.kit.test")
    logger.logLevel = .debug
    return LivePushConfiguration(
        serverURL: URL(string: "http://livepush.test")!, bundleID: bundleID, environment: .sandbox, journalDirectory: directory,
        credential: credential, deviceID: deviceID, transport: transport,
        retry: RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200)), logger: logger)
}

/// Runs `body` while `reporter.run()` sends; stops it afterwards (as the app's process ending would).
func whileRunning<Result>(
    _ reporter: LivePushReporter, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
) async throws -> Result {
    try await LivePushTesting.whileRunning({ await reporter.run() }, isolation: isolation, body)
}
