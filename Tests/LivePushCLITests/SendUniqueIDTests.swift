import APNsClient
import APNsCore
import Foundation
import LivePushTesting
import Testing

@testable import LivePushCLI

/// `livepush send` shows the `apns-unique-id` APNs returns in the development environment, by which
/// Apple's Push Notifications Console finds the delivery.
@Suite struct SendUniqueIDTests {
    static let bundleID = "com.example.app"

    @Test func anAcceptedPushShowsTheUniqueIDTheSimulatorReturned() async throws {
        try await withSimulator(SimulatorOptions(bundleID: Self.bundleID, attributesTypes: [], acceptUnknownTokens: true)) { apns in
            let send = try SendCommand.parse([
                "--url", "https://127.0.0.1:\(try #require(apns.simulator.apnsPort))", "--token", String(repeating: "ef", count: 32),
                "--bundle-id", Self.bundleID, "--content-state", #"{"score":1}"#,
            ])
            let outcome = try await apns.withClient { client in await client.deliver(try send.makeRequest(now: Date())) }
            let response = try outcome.result.get()
            let lines = OutcomePrinter.acceptedLines(response, attempts: outcome.attempts)

            let logged = try #require(await apns.simulator.world.pushes(limit: 1).first?.apnsUniqueID)
            #expect(lines.contains("apns-unique-id: \(logged)"), "\(lines)")
            #expect(lines.first == "status: 200")
        }
    }

    /// Production answers carry none: no line for it.
    @Test func anAnswerWithoutOneShowsNoUniqueIDLine() {
        let lines = OutcomePrinter.acceptedLines(APNsResponse(status: 200, apnsID: "5E3B2A1C-0000-4000-8000-000000000001"), attempts: 1)
        #expect(lines == ["status: 200", "apns-id: 5E3B2A1C-0000-4000-8000-000000000001"])
    }
}
