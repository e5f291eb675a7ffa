import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import APNsSimulator

/// A broadcast is kept once: every subscriber's history points at the same request record, and the
/// subscribers with the same outcome at the same history entry.
@Suite struct BroadcastHistorySharingTests {
    static let bundleID = DeviceWorldFixture.bundleID
    static let state: JSONValue = ["currentHealthLevel": 1.0, "eventDescription": "Ready"]

    /// A device world and a sandbox channel of the app's with `policy`: its id.
    private static func channel(policy: APNsMessageStoragePolicy) async throws -> (DeviceWorldFixture, String) {
        let fixture = try await DeviceWorldFixture()
        let channel = try await fixture.world.createChannel(bundleID: bundleID, environment: .sandbox, policy: policy, limit: 10, idBytes: 16).get()
        return (fixture, channel)
    }

    private func subscribe(_ fixture: DeviceWorldFixture, to channel: String, state: JSONValue = Self.state) async throws -> String {
        try await fixture.world.startChannelActivity(
            deviceID: fixture.deviceID,
            ActivityRequest(attributesType: "AdventureAttributes", attributes: ["hero": "Power Panda"], contentState: state, channelID: channel)
        ).activityID
    }

    private func broadcast(_ fixture: DeviceWorldFixture, _ channel: String, health: Double, expiration: Int64 = 0) async -> PushVerdict {
        await fixture.world.broadcast(
            ReceivedBroadcast(
                channelID: channel, bundleID: Self.bundleID, environment: .sandbox, priority: .conservesPower,
                expiration: expiration, requestID: UUID().uuidString.lowercased(), headers: [HeaderField(name: "apns-priority", value: "5")],
                payload: JSONValue.object(["aps": DeviceWorldFixture.update(fixture.now + 1, health: health)]).serialized(),
                receivedAt: fixture.clock.now()
            ))
    }

    private func lastEntry(_ fixture: DeviceWorldFixture, _ id: String) async throws -> PushRecord {
        try #require(try await fixture.world.activity(id: id).history.last)
    }

    @Test func subscribersShareOneRequestRecordAndKeepTheirOwnOutcome() async throws {
        let (fixture, channel) = try await Self.channel(policy: .noStorage)
        var ids: [String] = []
        for _ in 0..<3 { ids.append(try await subscribe(fixture, to: channel)) }
        // Another schema: this subscriber cannot decode the content state.
        let other = try await subscribe(fixture, to: channel, state: ["score": 1])
        #expect(await broadcast(fixture, channel, health: 0.6) == .accepted)

        let first = try await lastEntry(fixture, ids[0])
        var shared: Set<ObjectIdentifier> = []
        for id in ids + [other] {
            let entry = try await lastEntry(fixture, id)
            shared.insert(ObjectIdentifier(entry.request))
            #expect(entry.activityID == id)
            #expect(entry.apnsID == first.apnsID && entry.channelID == channel && entry.token.isEmpty)
        }
        #expect(shared.count == 1, "one request record for all four subscribers")
        // The three that applied it hold one history entry between them; the fourth its own.
        var entries: Set<ObjectIdentifier> = []
        for id in ids + [other] {
            let entry = try #require(await fixture.world.activities[id]?.history.last)
            entries.insert(ObjectIdentifier(entry))
        }
        #expect(entries.count == 2)
        #expect(first.outcome.kind == .applied)
        #expect(try await lastEntry(fixture, other).outcome.kind == .decodeFailure)
    }

    @Test func aStoredMessageReachesLateSubscribersAsTheSameRecord() async throws {
        let (fixture, channel) = try await Self.channel(policy: .mostRecentMessage)
        let early = try await subscribe(fixture, to: channel)
        _ = await broadcast(fixture, channel, health: 0.3, expiration: Int64(fixture.now + 3600))
        let late = try await subscribe(fixture, to: channel)
        let earlyEntry = try await lastEntry(fixture, early)
        let lateEntry = try await lastEntry(fixture, late)
        #expect(ObjectIdentifier(earlyEntry.request) == ObjectIdentifier(lateEntry.request))
        #expect(lateEntry.outcome.kind == .applied && lateEntry.activityID == late)
    }

    @Test func aSharedRecordEncodesAsBeforeAndDecodesBack() async throws {
        let (fixture, channel) = try await Self.channel(policy: .noStorage)
        let id = try await subscribe(fixture, to: channel)
        _ = await broadcast(fixture, channel, health: 0.5)
        let entry = try await lastEntry(fixture, id)
        let data = try SimulatorJSON.encoder().encode(entry)
        let keys = try #require(try JSONValue.parse(data).objectValue).keys.sorted()
        #expect(
            keys == ["activityId", "apnsId", "channelId", "deviceId", "headers", "outcome", "payload", "priority", "receivedAt", "status", "token"])
        let decoded = try SimulatorJSON.decoder().decode(PushRecord.self, from: data)
        #expect(decoded == entry)
        #expect(ObjectIdentifier(decoded.request) != ObjectIdentifier(entry.request), "equal by value, not by identity")
    }
}
