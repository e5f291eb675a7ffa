import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushTesting
import Testing

/// Channel management and broadcasts from the client to the local simulator, over real TLS HTTP/2
/// sockets (docs/apns-protocol.md §10).
@Suite(.serialized) struct BroadcastIntegrationTests {
    static let bundleID = Rangers.bundleID

    /// A device with `count` activities subscribed to `channel`.
    private func subscribers(_ apns: SimulatedAPNs, channel: APNsChannelID, count: Int) async throws -> [String] {
        let device = try await apns.addIPhone()
        var ids: [String] = []
        for _ in 0..<count {
            let created = try await apns.simulator.world.startChannelActivity(
                deviceID: device.id,
                ActivityRequest(
                    attributesType: "AdventureAttributes", attributes: ["hero": "Power Panda"],
                    contentState: ["currentHealthLevel": 1.0, "eventDescription": "Ready"], channelID: channel.base64
                ))
            ids.append(created.activityID)
        }
        return ids
    }

    private func broadcast(
        _ channel: APNsChannelID, health: Double, at timestamp: Date = Date(), expiration: APNsExpiration = .immediately,
        requestID: UUID? = nil
    ) throws -> APNsBroadcastRequest {
        let payload = LiveActivityPayload.update(
            contentState: ["currentHealthLevel": .number(health), "eventDescription": "Broadcast"], timestamp: timestamp
        )
        return try LiveActivityBroadcast(
            bundleID: Self.bundleID, channelID: channel.base64, payload: payload, priority: .conservesPower,
            expiration: expiration, requestID: requestID
        ).makeRequest()
    }

    @Test func createReadListDeleteAChannel() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            try await apns.withClient { client in
                let requestID = UUID()
                let created = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .mostRecentMessage, requestID: requestID)
                #expect(created.status == 201)
                #expect(created.requestID == requestID.uuidString.lowercased())
                let read = try await client.readChannel(bundleID: Self.bundleID, channelID: created.channelID)
                #expect(read.storagePolicy == .mostRecentMessage)
                #expect(read.pushType == "LiveActivity")
                let other = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage)
                #expect(try await client.listChannels(bundleID: Self.bundleID) == [created.channelID, other.channelID])
                #expect(try await client.listChannels(bundleID: "com.example.other").isEmpty)
                let deletedRequest = try await client.deleteChannel(bundleID: Self.bundleID, channelID: created.channelID)
                #expect(deletedRequest != nil)
                #expect(try await client.listChannels(bundleID: Self.bundleID) == [other.channelID])
                await #expect(
                    throws: APNsBroadcastError.rejected(status: 400, reason: .channelNotRegistered, requestID: requestID.uuidString.lowercased())
                ) {
                    try await client.readChannel(bundleID: Self.bundleID, channelID: created.channelID, requestID: requestID)
                }
                #expect(client.openConnectionCount == 0, "management requests go over their own pool, not the device-push connections")
            }
        }
    }

    @Test func theClientAcceptsTheReported200ForCreate() async throws {
        try await withSimulator(Rangers.simulator { $0.endpoint.broadcast.createStatus = 200 }) { apns in
            try await apns.withClient { client in
                let created = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage)
                #expect(created.status == 200)
                #expect(try await client.listChannels(bundleID: Self.bundleID) == [created.channelID])
            }
        }
    }

    @Test func aBroadcastUpdatesEverySubscriber() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            try await apns.withClient { client in
                let channel = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage).channelID
                let ids = try await subscribers(apns, channel: channel, count: 3)
                let loner = try await apns.startRangersActivity(health: 1.0)
                let requestID = UUID()
                let receipt = try await client.broadcast(try broadcast(channel, health: 0.25, requestID: requestID))
                #expect(receipt.requestID == requestID.uuidString.lowercased())
                #expect(receipt.uniqueID != nil)
                #expect(receipt.attempts == 1)
                for id in ids {
                    let activity = try await apns.simulator.world.activity(id: id)
                    #expect(activity.contentState["currentHealthLevel"] == .number(0.25))
                    #expect(activity.channelID == channel.base64)
                    #expect(activity.pushToken == nil, "a channel activity has no update token")
                    #expect(activity.history.last?.channelID == channel.base64)
                }
                let untouched = try await apns.snapshot(of: loner)
                #expect(untouched.contentState["currentHealthLevel"] == .number(1.0))
                let snapshot = try await apns.simulator.world.channel(id: channel.base64)
                #expect(snapshot.subscriberCount == 3)
                #expect(snapshot.lastBroadcast?.outcomes == ["applied": 3])
            }
        }
    }

    @Test func broadcastRefusalsAreTyped() async throws {
        try await withSimulator(Rangers.simulator { $0.endpoint.broadcast.disabledBundleIDs = ["com.example.nobroadcast"] }) { apns in
            try await apns.withClient { client in
                let channel = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage).channelID
                let expiring = try broadcast(channel, health: 0.5, expiration: .at(Date().addingTimeInterval(600)))
                do throws(APNsBroadcastError) {
                    _ = try await client.broadcast(expiring)
                    Issue.record("a non-zero expiration on a policy-0 channel was accepted")
                } catch {
                    #expect(error.reason == .badExpirationDate)
                }
                try await client.deleteChannel(bundleID: Self.bundleID, channelID: channel)
                let toDeleted = try broadcast(channel, health: 0.5)
                do throws(APNsBroadcastError) {
                    _ = try await client.broadcast(toDeleted)
                    Issue.record("a broadcast to a deleted channel was accepted")
                } catch {
                    #expect(error.reason == .channelNotRegistered)
                    #expect(error.description.contains("ChannelNotRegistered"))
                }
                do throws(APNsBroadcastError) {
                    _ = try await client.createChannel(bundleID: "com.example.nobroadcast", storagePolicy: .noStorage)
                    Issue.record("a channel of an app without the capability was created")
                } catch {
                    #expect(error.reason == .featureNotEnabled)
                }
            }
        }
    }

    @Test func theChannelLimitAnswersCannotCreateChannelConfig() async throws {
        try await withSimulator(Rangers.simulator { $0.endpoint.broadcast.maximumChannelsPerApp = 2 }) { apns in
            try await apns.withClient { client in
                _ = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage)
                _ = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .mostRecentMessage)
                do throws(APNsBroadcastError) {
                    _ = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage)
                    Issue.record("a third channel was created past a limit of 2")
                } catch {
                    #expect(error.reason == .cannotCreateChannelConfig)
                }
                #expect(
                    try await client.createChannel(bundleID: "com.example.other", storagePolicy: .noStorage).status == 201,
                    "the limit is per app")
            }
        }
    }

    @Test func anExpiredProviderTokenIsRenewedForChannelRequests() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            let tokens = StaleFirstTokens(apns)
            try await apns.withClient(tokens: tokens) { client in
                let created = try await client.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage)
                #expect(tokens.renewals == 1)
                #expect(try await client.listChannels(bundleID: Self.bundleID) == [created.channelID])
            }
        }
    }

    @Test func aBroadcastFollowsTheDevicePushRetryRules() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            let channel = try await apns.withClient { setup in
                try await setup.createChannel(bundleID: Self.bundleID, storagePolicy: .noStorage).channelID
            }
            let ids = try await subscribers(apns, channel: channel, count: 1)
            // The first provider token is two hours old: 403 ExpiredProviderToken, renewed once, sent again.
            let tokens = StaleFirstTokens(apns)
            try await apns.withClient(tokens: tokens) { client in
                let receipt = try await client.broadcast(try broadcast(channel, health: 0.6))
                #expect(receipt.attempts == 2)
                #expect(tokens.renewals == 1)
                #expect(client.openConnectionCount == 1, "broadcasts use the device-push connections")
                #expect(try await apns.simulator.world.activity(id: ids[0]).contentState["currentHealthLevel"] == .number(0.6))
            }
        }
    }
}
