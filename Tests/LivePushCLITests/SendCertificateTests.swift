import APNsClient
import APNsCore
import APNsSimulator
import ArgumentParser
import Foundation
import LivePushTesting
import Testing

@testable import LivePushCLI

/// `livepush send` with a provider certificate, and `livepush simulator certificate`, parsed and run
/// in-process against a local simulator.
@Suite struct SendCertificateTests {
    static let bundleID = "com.example.app"
    static let token = String(repeating: "ef", count: 32)

    private let target = ["--url", "https://127.0.0.1:2197", "--token", token, "--bundle-id", bundleID]

    @Test func aCertificateAndATokenKeyAreMutuallyExclusive() {
        let message = parseMessage(
            SendCommand.self,
            target + [
                "--cert-file", "c.pem", "--cert-key-file", "k.pem", "--key-id", "ABC123DEFG", "--push-type", "alert", "--alert-title", "Hi",
            ])
        #expect(message?.hasPrefix("--key-id and --cert-file/--cert-key-file are two ways to authenticate") == true)
        #expect(message?.contains("not both") == true)
    }

    @Test func aCertificateNeedsItsKeyAndTheReverse() {
        #expect(
            parseMessage(SendCommand.self, target + ["--cert-file", "c.pem", "--push-type", "alert", "--alert-title", "Hi"])
                == "--cert-file needs --cert-key-file: the certificate's private key (PEM)")
        #expect(
            parseMessage(SendCommand.self, target + ["--cert-key-file", "k.pem", "--push-type", "alert", "--alert-title", "Hi"])
                == "--cert-key-file needs --cert-file: the provider certificate (PEM) the key belongs to")
    }

    @Test func anAlertPushGoesToTheBundleID() throws {
        let send = try SendCommand.parse(target + ["--push-type", "alert", "--alert-title", "Hi", "--alert-body", "There", "--sound", "default"])
        let request = try send.makeRequest(now: Date())
        #expect(request.headers.pushType == .alert)
        #expect(request.headers.topic == Self.bundleID)
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"aps":{"alert":{"body":"There","title":"Hi"},"sound":"default"}}"#)
        #expect(
            parseMessage(SendCommand.self, target + ["--push-type", "alert", "--alert-title", "Hi", "--content-state", "{}"])
                == "--content-state is for Live Activity pushes, not --push-type alert")
        #expect(
            parseMessage(SendCommand.self, target + ["--push-type", "alert"]) == "--push-type alert needs --alert-title or --alert-body (or both)")
    }

    @Test func aRefusedLiveActivityPushExplainsThatCertificatesCannotSendThem() throws {
        let send = try SendCommand.parse(target + ["--cert-file", "c.pem", "--cert-key-file", "k.pem", "--content-state", "{}"])
        let refused = APNsDeliveryOutcome(result: .success(APNsResponse(status: 400, reason: .topicDisallowed)), attempts: 1, duration: .zero)
        #expect(send.certificateRemedy(refused)?.hasPrefix("Live Activity pushes need token-based authentication") == true)
        let withKey = try SendCommand.parse(target + ["--content-state", "{}"])
        #expect(withKey.certificateRemedy(refused) == nil)
    }

    @Test func issueACertificateThenSendOverIt() async throws {
        try await withSimulator(SimulatorOptions(bundleID: Self.bundleID, attributesTypes: [], acceptUnknownTokens: true)) { apns in
            try await withTemporaryDirectory(prefix: "livepush-cli") { folder in
                let simulator = apns.simulator
                let dataDirectory = apns.directory.path
                let out = folder.appendingPathComponent("out").path
                let port = try #require(simulator.apnsPort)

                var issue = try LivePush.parseAsRoot([
                    "simulator", "certificate", "--bundle-id", Self.bundleID, "--data-dir", dataDirectory, "--out", out,
                ])
                #expect(issue is SimulatorCertificateCommand)
                try issue.run()
                let certificateFile = out + "/\(Self.bundleID)-sandbox.pem"
                let keyFile = out + "/\(Self.bundleID)-sandbox-key.pem"
                let keyMode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
                #expect(keyMode == 0o600)

                let connection = [
                    "--url", "https://127.0.0.1:\(port)", "--ca-file", simulator.caCertificatePath,
                    "--cert-file", certificateFile, "--cert-key-file", keyFile, "--token", Self.token, "--bundle-id", Self.bundleID,
                ]
                let alert = try SendCommand.parse(connection + ["--push-type", "alert", "--alert-title", "Hello"])
                try await alert.run()

                let liveActivity = try SendCommand.parse(connection + ["--content-state", #"{"score":1}"#])
                await #expect {
                    try await liveActivity.run()
                } throws: { error in
                    (error as? ExitCode)?.rawValue == 1
                }
                let log = await simulator.world.pushes(limit: 10)
                #expect(log.map(\.status).sorted() == [200, 400])
                #expect(log.first { $0.status == 400 }?.reason == "TopicDisallowed")
            }
        }
    }
}
