import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import ArgumentParser
import Foundation
import LivePushTesting
import Testing

@testable import LivePushCLI

/// `livepush channels …` and `livepush send --channel`: validation messages, and the commands run
/// in-process against a local simulator.
@Suite(.serialized) struct ChannelsCommandTests {
    static let bundleID = "com.example.scores"
    static let channel = "dHJpcC10by10aGUtbW9vbg=="

    @Test func channelOptionsSayWhatIsAccepted() {
        let target = ["--url", "https://127.0.0.1:2195", "--bundle-id", Self.bundleID]
        #expect(
            parseMessage(ChannelsCommand.Create.self, target + ["--storage-policy", "2"])
                == "--storage-policy 2 is not a storage policy; accepted: 0 (no storage) or 1 (most recent message)")
        #expect(parseMessage(ChannelsCommand.Create.self, target)?.contains("--storage-policy") == true)
        #expect(
            parseMessage(ChannelsCommand.Read.self, target + ["--channel", "not base64!"])?
                .hasPrefix("--channel: channel id 'not base64!' is not base64") == true)
        #expect(
            parseMessage(ChannelsCommand.Delete.self, target + ["--channel", ""])
                == "--channel: channel id is empty; expected the base64 id APNs returned when the channel was created")
        #expect(
            parseMessage(ChannelsCommand.List.self, ["--url", "https://127.0.0.1:2195", "--bundle-id", "a.b.push-type.liveactivity"])?
                .hasPrefix("--bundle-id: bundle id 'a.b.push-type.liveactivity' ends in '.push-type.liveactivity'") == true)
        #expect(
            parseMessage(ChannelsCommand.List.self, target + ["--request-id", "ABC"])?
                .hasPrefix("--request-id 'ABC' is not a lowercase UUID") == true)
        #expect(parseMessage(ChannelsCommand.List.self, target) == nil)
    }

    @Test func theManagementEndpointFollowsTheEnvironment() throws {
        let production = try ChannelsCommand.List.parse(["--environment", "production", "--bundle-id", Self.bundleID])
        #expect(try production.options.endpoint() == APNsEndpoint(host: "api-manage-broadcast.push.apple.com", port: 2196, environment: .production))
        let sandbox = try ChannelsCommand.List.parse(["--environment", "sandbox", "--bundle-id", Self.bundleID])
        #expect(try sandbox.options.endpoint().description == "https://api-manage-broadcast.sandbox.push.apple.com:2195")
        let neither = try ChannelsCommand.List.parse(["--bundle-id", Self.bundleID])
        #expect(throws: CommandFailure.self) { try neither.options.endpoint() }
    }

    @Test func sendToAChannelChecksTheBroadcastRules() throws {
        let base = ["--url", "https://127.0.0.1:2197", "--bundle-id", Self.bundleID, "--content-state", #"{"score":1}"#]
        #expect(
            parseMessage(SendCommand.self, base + ["--channel", Self.channel, "--token", String(repeating: "ab", count: 32)])?
                .hasPrefix("--token and --channel are two targets") == true)
        #expect(parseMessage(SendCommand.self, base)?.hasPrefix("say whom to send to: --token HEX") == true)
        #expect(
            parseMessage(SendCommand.self, base + ["--channel", Self.channel, "--event", "start"])?
                .hasPrefix("--event start cannot be broadcast") == true)
        #expect(
            parseMessage(SendCommand.self, base + ["--channel", Self.channel, "--priority", "7"])
                == "--priority 7 is not allowed for a broadcast; use 10, 5 or 1")
        #expect(
            parseMessage(SendCommand.self, base + ["--channel", Self.channel, "--collapse-id", "x"])?
                .hasPrefix("--collapse-id is for pushes to a token") == true)
        #expect(
            parseMessage(SendCommand.self, base + ["--token", String(repeating: "ab", count: 32), "--request-id", UUID().uuidString.lowercased()])?
                .hasPrefix("--request-id is for broadcasts") == true)

        let send = try SendCommand.parse(base + ["--channel", Self.channel, "--priority", "1"])
        let request = try send.makeBroadcast(now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(request.path == "/4/broadcasts/apps/\(Self.bundleID)")
        #expect(request.priority == .low)
        #expect(request.expiration == .immediately, "a broadcast without --expiration sends 0")
        let big = try SendCommand.parse([
            "--url", "https://127.0.0.1:2197", "--bundle-id", Self.bundleID, "--channel", Self.channel,
            "--content-state", #"{"text":"\#(String(repeating: "x", count: 5200))"}"#,
        ])
        #expect(throws: CommandFailure.self) { try big.makeBroadcast(now: Date()) }
    }

    @Test func createBroadcastListAndDeleteAgainstTheSimulator() async throws {
        try await withSimulator(SimulatorOptions(bundleID: Self.bundleID, attributesTypes: [])) { apns in
            try await withTemporaryDirectory(prefix: "livepush-cli-channels") { folder in
                let simulator = apns.simulator
                let keyFile = try apns.writeSigningKey(into: folder)
                let credentials = ["--key-file", keyFile, "--key-id", apns.keyID, "--team-id", apns.teamID, "--ca-file", simulator.caCertificatePath]
                let manage = credentials + ["--url", "https://127.0.0.1:\(simulator.managePort!)", "--bundle-id", Self.bundleID]

                try await ChannelsCommand.Create.parse(manage + ["--storage-policy", "1"]).run()
                let channel = try #require(await simulator.world.allChannels().first)
                #expect(channel.messageStoragePolicy == 1)
                try await ChannelsCommand.Read.parse(manage + ["--channel", channel.channelID]).run()
                try await ChannelsCommand.List.parse(manage).run()

                let device = try await simulator.world.addDevice(DeviceRegistration(name: "iPhone", bundleID: Self.bundleID, environment: "sandbox"))
                let subscribed = try await simulator.world.startChannelActivity(
                    deviceID: device.deviceID,
                    ActivityRequest(
                        attributesType: "MatchAttributes", attributes: ["home": "A"], contentState: ["score": 0], channelID: channel.channelID
                    ))
                let send =
                    credentials + [
                        "--url", "https://127.0.0.1:\(simulator.apnsPort!)", "--bundle-id", Self.bundleID,
                        "--channel", channel.channelID, "--content-state", #"{"score":3}"#, "--expiration", "+1h", "--priority", "5",
                    ]
                try await SendCommand.parse(send).run()
                #expect(try await simulator.world.activity(id: subscribed.activityID).contentState["score"] == 3)

                try await ChannelsCommand.Delete.parse(manage + ["--channel", channel.channelID]).run()
                #expect(await simulator.world.allChannels().isEmpty)
                await #expect {
                    try await ChannelsCommand.Read.parse(manage + ["--channel", channel.channelID]).run()
                } throws: { error in
                    (error as? ExitCode)?.rawValue == 1
                }
                await #expect {
                    try await SendCommand.parse(send).run()
                } throws: { error in
                    (error as? ExitCode)?.rawValue == 1
                }
                // Exchanges are recorded just after they are answered: wait for both refusals.
                var refused: [String] = []
                for _ in 0..<200 where refused.count < 2 {
                    refused = await simulator.world.pushes(limit: 20).filter { $0.status == 400 }.compactMap(\.reason)
                    if refused.count < 2 { try await Task.sleep(for: .milliseconds(25)) }
                }
                #expect(refused == ["ChannelNotRegistered", "ChannelNotRegistered"])
            }
        }
    }
}
