import APNsAuth
import APNsCore
import Foundation
import Testing

@testable import APNsSimulator

/// The simulated broadcast service over real sockets: the channel management port and the broadcast
/// route of the APNs port, one test per reason (docs/apns-protocol.md §10.3).
@Suite struct BroadcastEndpointTests {
    static let createBody = Array(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#.utf8)
    static let update = Array(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":1}}}"#.utf8)

    /// Creates a channel over the management port; returns its id.
    private func create(_ harness: EndpointHarness, policy: Int = 0) async throws -> String {
        try await harness.withManagementConnection { client in
            let answer = try await client.send(
                harness.management(method: "POST"), body: Array(#"{"message-storage-policy":\#(policy),"push-type":"LiveActivity"}"#.utf8))
            #expect(answer.status == 201)
            return try #require(answer["apns-channel-id"])
        }
    }

    private func expect(
        _ client: RawHTTP2Client, _ headers: [(String, String)], body: [UInt8] = [], status: Int, reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let answer = try await client.send(headers, body: body)
        #expect(answer.status == status, sourceLocation: sourceLocation)
        #expect(answer.reason == reason, sourceLocation: sourceLocation)
        #expect(
            answer["apns-request-id"].flatMap { APNsID.parse($0) } != nil, "broadcast errors carry apns-request-id", sourceLocation: sourceLocation)
        #expect(answer["apns-id"] == nil, sourceLocation: sourceLocation)
    }

    @Test func createReadListDeleteOverTheManagementPort() async throws {
        try await withEndpoint { harness in
            try await harness.withManagementConnection { client in
                let requestID = UUID().uuidString.lowercased()
                let created = try await client.send(
                    harness.management(method: "POST", replacing: ["apns-request-id": requestID]), body: Self.createBody)
                #expect(created.status == 201)
                #expect(created["apns-request-id"] == requestID)
                #expect(created.body.isEmpty)
                let id = try #require(created["apns-channel-id"])
                #expect(Data(base64Encoded: id)?.count == 16)
                let read = try await client.send(harness.management(method: "GET", replacing: ["apns-channel-id": id]))
                #expect(read.status == 200)
                #expect(String(decoding: read.body, as: UTF8.self) == #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
                let list = try await client.send(harness.management(method: "GET", path: "/1/apps/\(EndpointHarness.bundleID)/all-channels"))
                #expect(list.status == 200)
                #expect(list.json?["channels"] as? [String] == [id])
                let deleted = try await client.send(harness.management(method: "DELETE", replacing: ["apns-channel-id": id]))
                #expect(deleted.status == 204)
                try await expect(
                    client, harness.management(method: "GET", replacing: ["apns-channel-id": id]), status: 400, reason: "ChannelNotRegistered")
                try await expect(
                    client, harness.management(method: "DELETE", replacing: ["apns-channel-id": id]), status: 400, reason: "ChannelNotRegistered")
            }
        }
    }

    @Test func managementRejections() async throws {
        try await withEndpoint(
            keyTopics: ["com.example.scores"],
            configure: {
                $0.broadcast.disabledBundleIDs = ["com.example.disabled"]
            }
        ) { harness in
            try await harness.withManagementConnection { client in
                try await expect(client, harness.management(method: "PUT"), body: Self.createBody, status: 405, reason: "MethodNotAllowed")
                try await expect(
                    client, harness.management(method: "POST", path: "/1/apps/\(EndpointHarness.bundleID)/all-channels"), status: 405,
                    reason: "MethodNotAllowed")
                try await expect(
                    client, harness.management(method: "GET", path: "/1/apps/\(EndpointHarness.bundleID)/channel"), status: 404, reason: "BadPath")
                try await expect(client, harness.management(method: "GET", path: "/1/apps//channels"), status: 404, reason: "BadPath")
                try await expect(client, harness.management(method: "GET", path: "/3/device/abcd"), status: 404, reason: "BadPath")
                try await expect(
                    client, harness.management(method: "POST", path: "/1/apps/\(EndpointHarness.topic)/channels"), body: Self.createBody, status: 400,
                    reason: "TopicDisallowed")
                try await expect(
                    client, harness.management(method: "POST", replacing: ["authorization": nil]), body: Self.createBody, status: 403,
                    reason: "MissingProviderToken")
                try await expect(
                    client, harness.management(method: "POST", path: "/1/apps/com.example.other/channels"), body: Self.createBody, status: 403,
                    reason: "TopicMismatch")
                try await expect(
                    client, harness.management(method: "POST", replacing: ["apns-request-id": "nope"]), body: Self.createBody, status: 400,
                    reason: "BadMessageId")
                try await expect(client, harness.management(method: "POST"), status: 400, reason: "PayloadEmpty")
                try await expect(client, harness.management(method: "POST"), body: Array("{not json".utf8), status: 400, reason: "BadRequestPayload")
                try await expect(
                    client, harness.management(method: "POST"),
                    body: Array(#"{"message-storage-policy":0,"push-type":"LiveActivity","colour":"red"}"#.utf8), status: 400,
                    reason: "BadRequestParams")
                try await expect(
                    client, harness.management(method: "POST"), body: Array(#"{"push-type":"LiveActivity"}"#.utf8), status: 400,
                    reason: "MissingChannelQueueSize")
                try await expect(
                    client, harness.management(method: "POST"), body: Array(#"{"message-storage-policy":2,"push-type":"LiveActivity"}"#.utf8),
                    status: 400, reason: "MissingChannelQueueSize")
                try await expect(
                    client, harness.management(method: "POST"), body: Array(#"{"message-storage-policy":1}"#.utf8), status: 400,
                    reason: "MissingPushType")
                try await expect(
                    client, harness.management(method: "POST"), body: Array(#"{"message-storage-policy":1,"push-type":"Alert"}"#.utf8), status: 400,
                    reason: "InvalidPushType")
                try await expect(client, harness.management(method: "GET"), status: 400, reason: "MissingChannelId")
                try await expect(
                    client, harness.management(method: "GET", replacing: ["apns-channel-id": "***"]), status: 400, reason: "BadChannelId")
                try await expect(
                    client, harness.management(method: "GET", replacing: ["apns-channel-id": String(repeating: "QUFB", count: 100)]), status: 400,
                    reason: "BadChannelId")
            }
        }

        try await withEndpoint(configure: { $0.broadcast.disabledBundleIDs = ["com.example.disabled"] }) { open in
            try await open.withManagementConnection { second in
                try await expect(
                    second, open.management(method: "POST", path: "/1/apps/com.example.disabled/channels"), body: Self.createBody, status: 400,
                    reason: "FeatureNotEnabled")
            }
        }
    }

    @Test func theChannelLimitIsPerAppAndConfigurable() async throws {
        try await withEndpoint(configure: { $0.broadcast.maximumChannelsPerApp = 1 }) { harness in
            _ = try await create(harness)
            try await harness.withManagementConnection { client in
                try await expect(client, harness.management(method: "POST"), body: Self.createBody, status: 400, reason: "CannotCreateChannelConfig")
            }
        }
    }

    /// Headers of a broadcast to a registered channel replaced (nil: left out), each with the reason of APNs' 400.
    static let headerRejections: [(replacing: [String: String?], reason: String)] = [
        (["apns-request-id": "not-a-uuid"], "BadMessageId"),
        (["apns-channel-id": nil], "MissingChannelId"),
        (["apns-push-type": nil], "MissingPushType"),
        (["apns-push-type": "alert"], "InvalidPushType"),
        (["apns-push-type": "LIVEACTIVITY"], "InvalidPushType"),
        (["apns-expiration": nil], "BadExpirationDate"),
        (["apns-expiration": "soon"], "BadExpirationDate"),
        (["apns-expiration": "1900000000"], "BadExpirationDate"),
        (["apns-priority": nil], "BadPriority"),
        (["apns-priority": "7"], "BadPriority"),
    ]

    @Test func broadcastRejections() async throws {
        try await withEndpoint(configure: {
            $0.broadcast.pushTypeCaseInsensitive = false
            $0.broadcast.disabledBundleIDs = ["com.example.disabled"]
        }) { harness in
            let channel = try await create(harness)
            try await harness.withConnection { client in
                var get = harness.broadcast(channel: channel)
                get[0] = (":method", "GET")
                try await expect(client, get, status: 405, reason: "MethodNotAllowed")
                try await expect(
                    client, harness.broadcast(channel: channel, path: "/4/broadcasts/apps/"), body: Self.update, status: 404, reason: "BadPath")
                try await expect(
                    client, harness.broadcast(channel: channel, path: "/4/broadcasts/apps/a.b/extra"), body: Self.update, status: 404,
                    reason: "BadPath")
                try await expect(
                    client, harness.broadcast(channel: channel, path: "/4/broadcasts/apps/\(EndpointHarness.topic)"), body: Self.update, status: 400,
                    reason: "TopicDisallowed")
                try await expect(
                    client, harness.broadcast(channel: channel, replacing: ["authorization": "bearer x.y.z"]), body: Self.update, status: 403,
                    reason: "InvalidProviderToken")
                try await expect(
                    client, harness.broadcast(channel: channel, path: "/4/broadcasts/apps/com.example.disabled"), body: Self.update, status: 400,
                    reason: "FeatureNotEnabled")
                for (replacing, reason) in Self.headerRejections {
                    try await expect(
                        client, harness.broadcast(channel: channel, replacing: replacing), body: Self.update, status: 400, reason: reason)
                }
                try await expect(client, harness.broadcast(channel: "%%%"), body: Self.update, status: 400, reason: "BadChannelId")
                try await expect(
                    client, harness.broadcast(channel: "AAAAAAAAAAAAAAAAAAAAAA=="), body: Self.update, status: 400, reason: "ChannelNotRegistered")
                try await expect(client, harness.broadcast(channel: channel), status: 400, reason: "PayloadEmpty")
                try await expect(
                    client, harness.broadcast(channel: channel), body: Array(repeating: UInt8(ascii: " "), count: 5121), status: 413,
                    reason: "PayloadTooLarge")
                try await expect(client, harness.broadcast(channel: channel), body: Array("{oops".utf8), status: 400, reason: "BadRequestPayload")
            }
        }
    }

    @Test func anAcceptedBroadcastEchoesItsRequestID() async throws {
        try await withEndpoint { harness in
            let channel = try await create(harness)
            try await harness.withConnection { client in
                let requestID = UUID().uuidString.lowercased()
                let answer = try await client.send(
                    harness.broadcast(
                        channel: channel, replacing: ["apns-request-id": requestID, "apns-priority": "1", "apns-push-type": "LiveActivity"]),
                    body: Self.update)
                #expect(answer.status == 200)
                #expect(answer["apns-request-id"] == requestID)
                #expect(answer["apns-unique-id"].flatMap { UUID(uuidString: $0) } != nil)
                #expect(answer["apns-id"] == nil)
                #expect(answer.body.isEmpty)
                let snapshot = try await harness.world.channel(id: channel)
                #expect(snapshot.broadcastCount == 1)
                #expect(snapshot.lastBroadcast?.requestID == requestID)
                // The exchange is recorded after the answer is written: wait for it.
                var recorded: PushLogEntry?
                for _ in 0..<200 where recorded == nil {
                    recorded = await harness.world.pushes(limit: 10).first { $0.apnsID == requestID }
                    if recorded == nil { try await Task.sleep(for: .milliseconds(25)) }
                }
                #expect(recorded?.path == "/4/broadcasts/apps/\(EndpointHarness.bundleID)")
                #expect(recorded?.status == 200)
                #expect(recorded?.apnsUniqueID == answer["apns-unique-id"])
            }
        }
    }
}
