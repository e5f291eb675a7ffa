import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import LivePushTesting
import Testing

@testable import LivePushCLI

/// What a new user meets in the first hour against the simulator: a TLS failure that says the cause and
/// the fix first with the CA's real path, the exit code the README gives, a doubled topic suffix caught,
/// a token issued in the future warned about, and `serve` saying at start that APNs cannot be reached.
@Suite struct FirstHourMessageTests {
    static let realCA = SimulatorDefaults.caCertificatePath()

    @Test func anUntrustedSimulatorSaysTheCauseAndTheFixFirstWithTheRealCAPath() async throws {
        try await withSimulator { apns in
            // The system's roots only: the simulator's CA is not among them.
            let untrusted = APNsClientConfiguration(endpoint: apns.endpoint, connectTimeout: .seconds(30))
            try await withAPNsClient(untrusted, tokens: try apns.tokens()) { client in
                let warning = try #require(await ServeCommand.reachabilityWarning(client, endpoint: apns.endpoint))
                #expect(warning.hasPrefix("cannot reach APNs at https://127.0.0.1:\(apns.endpoint.port): TLS with"), "\(warning)")
                let cause = try #require(warning.range(of: "its certificate is not signed by a CA this client trusts"))
                let fix = try #require(warning.range(of: "--ca-file \(Self.realCA)"))
                #expect(cause.upperBound <= fix.lowerBound && !warning.contains("DATA_DIR") && !warning.contains("TLS said"))
                #expect(warning.contains("the API still accepts pushes (202)"))
                // The client's own error: the cause and the fix first, the TLS library's words last.
                await #expect {
                    try await client.checkReachable()
                } throws: { error in
                    let text = "\(error)"
                    guard let cause = text.range(of: "its certificate is not signed by a CA this client trusts"),
                        let fix = text.range(of: "--ca-file \(Self.realCA)"), let library = text.range(of: "TLS said: ")
                    else { return false }
                    return cause.upperBound <= fix.lowerBound && fix.upperBound <= library.lowerBound
                }
            }
            try await apns.withClient { client in
                #expect(await ServeCommand.reachabilityWarning(client, endpoint: apns.endpoint) == nil, "with its CA it is reached")
                #expect(client.openConnectionCount == 1, "and the connection is kept for the pushes to come")
            }
        }
    }

    @Test func aMissingCAFileExitsWithTwoAsTheReadmeSays() async throws {
        try await withSimulator { apns in
            try await withTemporaryDirectory(prefix: "livepush-cli") { folder in
                let keyFile = try apns.writeSigningKey(into: folder)
                let send = try SendCommand.parse([
                    "--url", "https://127.0.0.1:\(apns.endpoint.port)", "--ca-file", folder.appendingPathComponent("ca.pem").path,
                    "--key-file", keyFile, "--key-id", apns.keyID, "--team-id", apns.teamID, "--token", String(repeating: "ab", count: 32),
                    "--bundle-id", apns.bundleID, "--content-state", #"{"score":1}"#,
                ])
                await #expect {
                    try await send.run()
                } throws: { error in
                    (error as? ExitCode)?.rawValue == 2
                }
            }
        }
        let missing = APNsClientConfiguration(
            endpoint: APNsEndpoint(host: "127.0.0.1", port: 1, environment: .sandbox), additionalTrustRootFile: "/nonexistent/ca.pem")
        #expect {
            _ = try APNsClient(configuration: missing, tokens: nil)
        } throws: { error in
            let text = "\(error)"
            return text.contains("the CA file '/nonexistent/ca.pem' does not exist or is not readable") && text.contains(Self.realCA)
        }
    }

    @Test func aBundleIDThatAlreadyEndsInTheTopicSuffixIsRefused() {
        let arguments = [
            "--url", "https://127.0.0.1:2197", "--token", String(repeating: "ab", count: 32), "--bundle-id",
            "com.example.rangers.push-type.liveactivity", "--content-state", "{}",
        ]
        let message = parseMessage(SendCommand.self, arguments) ?? "parsed"
        #expect(
            message
                == "--bundle-id 'com.example.rangers.push-type.liveactivity' ends in the topic suffix '.push-type.liveactivity'; give the app's "
                + "bundle id, 'com.example.rangers': livepush send adds .push-type.liveactivity to the apns-topic itself")
        #expect(throws: Never.self) { try SendTargetOptions.checkPlainBundleID("com.example.rangers") }
    }

    @Test func aTokenIssuedFarInTheFutureIsWarnedAbout() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let warning = try #require(JWTCommand.futureWarning(issuedAt: 99_999_999_999, now: now))
        #expect(warning.hasPrefix("warning: --issued-at 99999999999 is 5138-11-16T09:46:39Z, "), "\(warning)")
        #expect(warning.contains("InvalidProviderToken") && warning.contains("Leave --issued-at out"))
        #expect(JWTCommand.futureWarning(issuedAt: 1_800_000_000_000, now: now)?.contains("milliseconds") == true)
        #expect(JWTCommand.futureWarning(issuedAt: 1_800_000_030, now: now) == nil, "within a minute: no warning")
        #expect(JWTCommand.futureWarning(issuedAt: 1_799_999_000, now: now) == nil)
    }
}
