import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// An audience start to 1,000 users, each on a simulated iPhone of their own: every iPhone shows the
/// activity, joined to the channel, and one broadcast updates them all. No timing here: the 10,000-user
/// run with its figures (the 202's latency) is `Benchmarks/audience.sh`.
@Suite struct HeavyAudienceStartTests {
    static let userCount = 1000

    @Test(.enabled(if: HeavyTests.isEnabled, HeavyTests.skipped), .exclusive, arguments: TestDatabase.available)
    func aThousandUsersJoinTheChannelAndOneBroadcastUpdatesThemAll(database: TestStore) async throws {
        try await withSimulator { sim in
            try await withServer(ServerOptions(store: database), over: sim) { server in
                let http = server.http
                let created = try await http.post(
                    "/v1/channels", key: TestServer.backendKey, #"{"name":"final","bundleId":"\#(sim.bundleID)","storagePolicy":0}"#)
                let channel = try #require(created.json?["id"]?.stringValue, "\(created.text)")
                let apnsChannel = try #require(created.json?["apnsChannelId"]?.stringValue, "\(created.text)")
                let fans = (0..<Self.userCount).map { String(format: "fan-%05d", $0) }
                let devices = try await AudienceStartTests.addUsers(fans, sim: sim, server: server)

                let answer = try await http.post(
                    "/v1/starts", key: TestServer.backendKey,
                    AudienceStartTests.body(AudienceStartTests.userList(fans), sim: sim, channel: channel))
                #expect(answer.status == 202, "\(answer.text)")
                let progress = try await server.finishedGroupSend(answer, timeout: .seconds(300))
                let counts = progress["counts"]
                #expect(counts?["targeted"]?.numberValue == Double(Self.userCount), "\(progress)")
                #expect(counts?["sent"]?.numberValue == Double(Self.userCount), "\(progress)")
                #expect(counts?["skipped"]?.numberValue == 0 && counts?["failed"]?.numberValue == 0, "\(progress)")

                let world = sim.simulator.world
                #expect(try await eventually(timeout: .seconds(300)) { try await world.channel(id: apnsChannel).subscriberCount == Self.userCount })
                var joined = 0
                for fan in fans {
                    let activities = try await world.device(id: try #require(devices[fan])).activities
                    if activities.count == 1, activities.first?.channelID == apnsChannel, activities.first?.state == .active { joined += 1 }
                }
                #expect(joined == Self.userCount, "every iPhone shows one activity, joined to the channel")

                let update = try await http.post("/v1/channels/\(channel)/update", key: TestServer.backendKey, #"{"contentState":{"hp":0.5}}"#)
                #expect(update.status == 202, "\(update.text)")
                #expect(
                    try await eventually(timeout: .seconds(300)) {
                        try await world.channel(id: apnsChannel).lastBroadcast?.outcomes["applied"] == Self.userCount
                    })
                var updated = 0
                for fan in fans {
                    let activities = try await world.device(id: try #require(devices[fan])).activities
                    if activities.count == 1, activities.first?.contentState["hp"]?.numberValue == 0.5 { updated += 1 }
                }
                #expect(updated == Self.userCount, "one broadcast updated every iPhone's activity")
            }
        }
    }
}
