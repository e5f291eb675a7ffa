import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import APNsSimulator

/// Subscribers of a channel apply broadcasts with the device rules of token pushes
/// (docs/apns-protocol.md §10.4), and a policy-1 channel's stored message reaches late subscribers.
@Suite struct ChannelSubscriptionTests {
    static let bundleID = DeviceWorldFixture.bundleID
    static let state: JSONValue = ["currentHealthLevel": 1.0, "eventDescription": "Ready"]

    private func channel(_ fixture: DeviceWorldFixture, policy: APNsMessageStoragePolicy = .noStorage) async throws -> String {
        try await fixture.world.createChannel(
            bundleID: Self.bundleID, environment: .sandbox, policy: policy, limit: 10, idBytes: 16
        ).get()
    }

    private func subscribe(_ fixture: DeviceWorldFixture, to channel: String, state: JSONValue = ChannelSubscriptionTests.state) async throws
        -> String
    {
        try await fixture.world.startChannelActivity(
            deviceID: fixture.deviceID,
            ActivityRequest(
                attributesType: "AdventureAttributes", attributes: ["hero": "Power Panda"], contentState: state, channelID: channel
            )
        ).activityID
    }

    private func broadcast(_ fixture: DeviceWorldFixture, _ channel: String, _ aps: JSONValue, expiration: Int64 = 0) async -> PushVerdict {
        await fixture.world.broadcast(
            ReceivedBroadcast(
                channelID: channel, bundleID: Self.bundleID, environment: .sandbox, priority: .conservesPower,
                expiration: expiration, requestID: UUID().uuidString.lowercased(), headers: [],
                payload: JSONValue.object(["aps": aps]).serialized(), receivedAt: fixture.clock.now()
            ))
    }

    @Test func everySubscriberAppliesTheBroadcastWithItsOwnRules() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        let first = try await subscribe(fixture, to: channel)
        let second = try await subscribe(fixture, to: channel)
        #expect(await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 10, health: 0.7)) == .accepted)
        #expect(try await fixture.world.activity(id: first).contentState["currentHealthLevel"] == .number(0.7))
        #expect(try await fixture.world.activity(id: second).contentState["currentHealthLevel"] == .number(0.7))
        // An older timestamp is ignored by every subscriber.
        _ = await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 5, health: 0.1))
        let ignored = try await fixture.world.activity(id: first)
        #expect(ignored.contentState["currentHealthLevel"] == .number(0.7))
        #expect(ignored.history.last?.outcome.kind == .ignoredOlderTimestamp)
        // The activity behind the fixture's token is not subscribed and stays as it was.
        #expect(try await fixture.activity().contentState["currentHealthLevel"] == .number(1.0))
        let summary = try await fixture.world.channel(id: channel).lastBroadcast
        #expect(summary?.outcomes == ["ignoredOlderTimestamp": 2])
    }

    @Test func aContentStateThatDoesNotDecodeFailsOnEverySubscriber() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        let id = try await subscribe(fixture, to: channel)
        let other = try await subscribe(fixture, to: channel, state: ["score": 1])
        _ = await broadcast(
            fixture, channel,
            .object([
                "event": "update", "timestamp": .number(Double(fixture.now + 1)),
                "content-state": ["currentHealthLevel": "high", "eventDescription": "Hit"],
            ]))
        let activity = try await fixture.world.activity(id: id)
        #expect(activity.history.last?.outcome.kind == .decodeFailure)
        #expect(activity.contentState == Self.state)
        // Another schema gets its own verdict: its required "score" is missing.
        #expect(try await fixture.world.activity(id: other).history.last?.outcome.kind == .decodeFailure)
    }

    @Test func anEndWithAPastDismissalRemovesSubscribersFromTheChannel() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        let id = try await subscribe(fixture, to: channel)
        _ = await broadcast(fixture, channel, DeviceWorldFixture.end(fixture.now + 1, dismissal: fixture.now - 10))
        #expect(try await fixture.world.activity(id: id).state == .dismissed)
        #expect(try await fixture.world.channel(id: channel).subscriberCount == 0)
        #expect(try await fixture.world.channel(id: channel).lastBroadcast?.outcomes == ["applied": 1])
    }

    @Test func aStartBroadcastIsDroppedByTheDevice() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        let id = try await subscribe(fixture, to: channel)
        _ = await broadcast(fixture, channel, .object(["event": "start", "timestamp": .number(Double(fixture.now + 1))]))
        #expect(try await fixture.world.activity(id: id).history.last?.outcome.kind == .dropped)
    }

    @Test func policyOneKeepsTheLastMessageForLaterSubscribersUntilItExpires() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture, policy: .mostRecentMessage)
        let expiration = Int64(fixture.now + 3600)
        _ = await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 1, health: 0.3), expiration: expiration)
        fixture.clock.advance(by: 60)
        let late = try await subscribe(fixture, to: channel)
        let activity = try await fixture.world.activity(id: late)
        #expect(activity.contentState["currentHealthLevel"] == .number(0.3))
        #expect(activity.history.last?.channelID == channel)
        fixture.clock.advance(by: 3600)
        let tooLate = try await subscribe(fixture, to: channel)
        #expect(try await fixture.world.activity(id: tooLate).contentState == Self.state, "the message expired")
    }

    @Test func storageIsCappedAtEightHours() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture, policy: .mostRecentMessage)
        _ = await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 1, health: 0.3), expiration: Int64(fixture.now + 86400))
        #expect(try await fixture.world.channel(id: channel).storedMessageUntil == fixture.clock.now().addingTimeInterval(8 * 3600))
        fixture.clock.advance(by: 8 * 3600 + 1)
        let late = try await subscribe(fixture, to: channel)
        #expect(try await fixture.world.activity(id: late).contentState == Self.state)
    }

    @Test func policyZeroStoresNothingAndRefusesAnExpiration() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        #expect(
            await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 1), expiration: 1)
                == .rejected(.badExpirationDate, invalidSince: nil))
        _ = await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 1, health: 0.2))
        let late = try await subscribe(fixture, to: channel)
        #expect(try await fixture.world.activity(id: late).contentState == Self.state)
    }

    @Test func aDeletedChannelRefusesBroadcastsAndSubscriptions() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        let id = try await subscribe(fixture, to: channel)
        #expect(await fixture.world.deleteChannel(id: channel, bundleID: Self.bundleID, environment: .sandbox) == nil)
        #expect(await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 1)) == .rejected(.channelNotRegistered, invalidSince: nil))
        #expect(try await fixture.world.activity(id: id).channelID == nil)
        await #expect(throws: DeviceWorldError.self) { try await subscribe(fixture, to: channel) }
        #expect(await fixture.world.deleteChannel(id: channel, bundleID: Self.bundleID, environment: .sandbox) == .channelNotRegistered)
    }

    @Test func aChannelOfAnotherEnvironmentIsNotRegistered() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await fixture.world.createChannel(
            bundleID: Self.bundleID, environment: .production, policy: .noStorage, limit: 10, idBytes: 16
        ).get()
        #expect(await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 1)) == .rejected(.channelNotRegistered, invalidSince: nil))
        await #expect(throws: DeviceWorldError.self) { try await subscribe(fixture, to: channel) }
    }

    @Test func pushToStartWithInputPushChannelSubscribesTheNewActivity() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        let start: JSONValue = [
            "event": "start", "timestamp": .number(Double(fixture.now)), "attributes-type": "AdventureAttributes",
            "attributes": ["hero": "Power Panda"], "content-state": Self.state, "alert": ["title": "Go"],
            "input-push-channel": .string(channel),
        ]
        #expect(await fixture.world.deliver(fixture.push(start, to: fixture.pushToStartToken)) == .accepted)
        #expect(try await fixture.world.channel(id: channel).subscriberCount == 1)
        let started = try await fixture.world.device(id: fixture.deviceID).activities.first { $0.channelID == channel }
        #expect(started != nil)

        var unknown = start.objectValue ?? [:]
        unknown["input-push-channel"] = "AAAAAAAAAAAAAAAAAAAAAA=="
        let before = try await fixture.world.device(id: fixture.deviceID).activities.count
        #expect(await fixture.world.deliver(fixture.push(.object(unknown), to: fixture.pushToStartToken)) == .accepted)
        let device = try await fixture.world.device(id: fixture.deviceID)
        #expect(device.activities.count == before, "an unknown channel means the activity does not start")
        #expect(device.apps.first?.history.last?.outcome.kind == .dropped)
        #expect(device.apps.first?.history.last?.outcome.detail?.contains("does not start") == true)
    }

    @Test func theChannelLimitCounts() async throws {
        let fixture = try await DeviceWorldFixture()
        for _ in 0..<2 {
            _ = try await fixture.world.createChannel(bundleID: Self.bundleID, environment: .sandbox, policy: .noStorage, limit: 2, idBytes: 16).get()
        }
        let third = await fixture.world.createChannel(bundleID: Self.bundleID, environment: .sandbox, policy: .noStorage, limit: 2, idBytes: 16)
        #expect(throws: ChannelRefusal(.cannotCreateChannelConfig)) { try third.get() }
        #expect(await fixture.world.channelIDs(bundleID: Self.bundleID, environment: .sandbox).count == 2)
    }

    @Test func bulkStartsSubscribeEveryActivity() async throws {
        let fixture = try await DeviceWorldFixture()
        let channel = try await channel(fixture)
        let created = try await fixture.world.startChannelActivities(
            deviceID: fixture.deviceID,
            ActivityRequest(
                attributesType: "AdventureAttributes", attributes: ["hero": "Power Panda"], contentState: Self.state, channelID: channel
            ), count: 500)
        #expect(created.subscriberCount == 500)
        _ = await broadcast(fixture, channel, DeviceWorldFixture.update(fixture.now + 1, health: 0.4))
        let snapshot = try await fixture.world.channel(id: channel, subscriberLimit: 3)
        #expect(snapshot.lastBroadcast?.outcomes == ["applied": 500])
        #expect(snapshot.subscribers?.count == 3)
        for id in snapshot.subscribers ?? [] {
            #expect(try await fixture.world.activity(id: id).contentState["currentHealthLevel"] == .number(0.4))
        }
        await #expect(throws: DeviceWorldError.self) {
            try await fixture.world.startChannelActivities(
                deviceID: fixture.deviceID,
                ActivityRequest(
                    attributesType: "AdventureAttributes", attributes: [:], contentState: Self.state, channelID: channel
                ), count: 0)
        }
    }
}
