import APNsSimulator
import Foundation
import LiveActivity
import Testing

/// The control API's channel routes over HTTP: create, list, read with a bounded subscriber list,
/// activities started subscribed to a channel one by one and in bulk, and the errors of each.
@Suite struct ControlChannelTests {
    static let bundleID = "com.example.rangers"

    @Test func channelsAndTheirSubscribersThroughTheControlAPI() async throws {
        try await withControl { harness in
            // Channel ids are base64: take one with a `/`, which the path carries percent-encoded.
            var created = try await harness.post(
                "/v1/channels", ["bundleId": .string(Self.bundleID), "environment": "sandbox", "messageStoragePolicy": 1])
            for _ in 0..<100 where created.json?["channelId"]?.stringValue?.contains("/") == false {
                created = try await harness.post(
                    "/v1/channels", ["bundleId": .string(Self.bundleID), "environment": "sandbox", "messageStoragePolicy": 1])
            }
            #expect(created.status == 201, "\(created.text)")
            let channelID = try #require(created.json?["channelId"]?.stringValue)
            try #require(channelID.contains("/"), "no channel id with a / in 100 channels")
            #expect(created.json?["messageStoragePolicy"] == 1 && created.json?["subscriberCount"] == 0)
            let pathID = try #require(channelID.addingPercentEncoding(withAllowedCharacters: .alphanumerics))

            let device = try await harness.post("/v1/devices", ["name": "Stand", "bundleId": .string(Self.bundleID), "environment": "sandbox"])
            let deviceID = try #require(device.json?["deviceId"]?.stringValue)
            let one = try await harness.post(
                "/v1/devices/\(deviceID)/activities",
                [
                    "attributesType": "MatchAttributes", "attributes": ["match": "final"], "contentState": ["score": "0-0"],
                    "channelId": .string(channelID),
                ])
            #expect(one.status == 201, "\(one.text)")
            let bulk = try await harness.post(
                "/v1/devices/\(deviceID)/activities/bulk",
                [
                    "count": 25,
                    "activity": [
                        "attributesType": "MatchAttributes", "attributes": ["match": "final"], "contentState": ["score": "0-0"],
                        "channelId": .string(channelID),
                    ],
                ])
            #expect(bulk.status == 201, "\(bulk.text)")
            #expect(bulk.json?["created"] == 25 && bulk.json?["channelId"]?.stringValue == channelID && bulk.json?["subscriberCount"] == 26)

            let listed = try await harness.request("GET", "/v1/channels")
            let entry = try #require(listed.json?["channels"]?.arrayValue?.first { $0["channelId"]?.stringValue == channelID })
            #expect(entry["subscriberCount"] == 26)
            let read = try await harness.request("GET", "/v1/channels/\(pathID)?subscribers=10")
            #expect(read.status == 200 && read.json?["subscriberCount"] == 26, "\(channelID): \(read.status) \(read.text)")
            #expect(read.json?["subscribers"]?.arrayValue?.count == 10, "the list is bounded by ?subscribers")
            let none = try await harness.request("GET", "/v1/channels/\(pathID)?subscribers=0")
            #expect((none.json?["subscribers"]?.arrayValue?.count ?? 0) == 0)

            // Errors name what is wrong.
            let badLimit = try await harness.request("GET", "/v1/channels/\(pathID)?subscribers=-1")
            #expect(badLimit.status == 400 && badLimit.text.contains("subscribers"), "\(badLimit.text)")
            let unknown = try await harness.request("GET", "/v1/channels/AAAAAAAAAAAAAAAAAAAAAA==")
            #expect(unknown.status == 404, "\(unknown.text)")
            let badPolicy = try await harness.post(
                "/v1/channels", ["bundleId": .string(Self.bundleID), "environment": "sandbox", "messageStoragePolicy": 2])
            #expect(badPolicy.status == 400, "\(badPolicy.text)")
            let unknownChannel = try await harness.post(
                "/v1/devices/\(deviceID)/activities",
                [
                    "attributesType": "MatchAttributes", "attributes": [:], "contentState": ["score": "0-0"], "channelId": "AAAAAAAAAAAAAAAAAAAAAA==",
                ])
            #expect(
                unknownChannel.status >= 400 && unknownChannel.status < 500,
                "an activity cannot subscribe to an unknown channel: \(unknownChannel.text)")
            let tooMany = try await harness.post(
                "/v1/devices/\(deviceID)/activities/bulk",
                [
                    "count": 0,
                    "activity": ["attributesType": "MatchAttributes", "attributes": [:], "contentState": [:], "channelId": .string(channelID)],
                ])
            #expect(tooMany.status == 400, "\(tooMany.text)")
        }
    }
}
