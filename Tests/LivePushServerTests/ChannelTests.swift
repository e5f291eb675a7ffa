import APNsCore
import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The channel registry and broadcasts through the outbox, on SQLite and PostgreSQL, against a stand-in
/// APNs that keeps channels like Apple's.
@Suite struct ChannelTests {
    static let backend = TestServer.backendKey

    static func create(_ harness: TestServer, name: String, policy: Int = 0, group: String? = nil) async throws -> TestResponse {
        let groupField = group.map { #","groupId":"\#($0)""# } ?? ""
        return try await harness.http.post(
            "/v1/channels", key: backend, #"{"name":"\#(name)","bundleId":"com.example.rangers","storagePolicy":\#(policy)\#(groupField)}"#)
    }

    @Test(arguments: TestDatabase.available)
    func aChannelIsCreatedBroadcastToAndDeleted(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            let http = harness.http
            let created = try await Self.create(harness, name: "match-1", policy: 1)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.json?["id"]?.stringValue)
            let apnsID = try #require(created.json?["apnsChannelId"]?.stringValue)
            #expect(sender.channelsAtAPNs[apnsID] == 1)
            #expect(try await Self.create(harness, name: "match-1").status == 409, "names are unique among live channels")

            let update = try await http.post(
                "/v1/channels/\(id)/update", key: Self.backend, #"{"contentState":{"score":"1-0"},"priority":10,"expiration":"+2h"}"#)
            #expect(update.status == 202 && update.json?["pushIds"]?.arrayValue?.count == 1, "\(update.text)")
            #expect(await eventually { sender.broadcasts.count == 1 })
            let sent = try #require(sender.broadcasts.first)
            #expect(sent.apnsChannelID == apnsID && sent.priority == .immediate && sent.expiration != nil, "a storing channel keeps the expiration")
            let payload = try #require(try? JSONSerialization.jsonObject(with: sent.payload) as? [String: Any])
            let aps = try #require(payload["aps"] as? [String: Any])
            #expect(aps["event"] as? String == "update" && (aps["content-state"] as? [String: Any])?["score"] as? String == "1-0")

            #expect(
                await eventually {
                    let detail = try? await http.get("/v1/channels/\(id)", key: Self.backend)
                    return detail?.json?["deliveries"]?.arrayValue?.first?["outcome"]?.stringValue == "accepted"
                }, "the channel's history lists the broadcast")
            let list = try await http.get("/v1/channels", key: Self.backend)
            #expect(list.json?["channels"]?.arrayValue?.count == 1 && list.json?["limit"]?.numberValue == 10_000)

            let start = try await http.post("/v1/channels/\(id)/start", key: Self.backend, #"{"contentState":{}}"#)
            #expect(start.status == 404 || start.status == 405, "a broadcast cannot start an activity: there is no such route")

            let deleted = try await http.request("DELETE", "/v1/channels/\(id)", key: Self.backend)
            #expect(deleted.status == 200 && deleted.json?["deletedAt"]?.stringValue != nil, "\(deleted.text)")
            #expect(sender.channelsAtAPNs[apnsID] == nil)
            let after = try await http.post("/v1/channels/\(id)/update", key: Self.backend, #"{"contentState":{"score":"2-0"}}"#)
            #expect(after.status == 409 && after.errorRule == "deleted", "\(after.text)")
            #expect(try await http.post("/v1/channels/\(UUID())/update", key: Self.backend, #"{"contentState":{}}"#).status == 404)
            #expect(try await http.get("/v1/channels/not-a-uuid", key: Self.backend).status == 404)
            #expect(
                try await http.post("/v1/channels", key: TestServer.appKey, #"{"name":"x","bundleId":"b","storagePolicy":0}"#).status == 403,
                "channels are the backend's")
        }
    }

    @Test(arguments: TestDatabase.available)
    func broadcastsAreRetriedAndAGroupsUpdatesGoOutByChannel(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            let http = harness.http
            let created = try await Self.create(harness, name: "party-1 fans", policy: 0, group: "party-1")
            let id = try #require(created.json?["id"]?.stringValue)
            #expect(
                try await http.post(
                    "/v1/activities", key: TestServer.appKey,
                    registrationJSON(activityID: "hero-1", token: IdentityTests.hex(0x31), groups: ["party-1"])
                ).status == 201)

            sender.enqueueChannelAnswers([.refused(status: 503, reason: "ServiceUnavailable"), .failed("connection reset")])
            let group = try await http.post("/v1/groups/party-1/update", key: Self.backend, #"{"contentState":{"hp":3}}"#)
            #expect(
                group.status == 202 && group.json?["broadcastPushIds"]?.arrayValue?.count == 1 && group.json?["sendId"] != nil,
                "one group send to the device and one broadcast: \(group.text)")
            #expect(await eventually { sender.broadcasts.count == 3 && sender.requests.count == 1 })
            #expect(sender.broadcasts.allSatisfy { $0.expiration == nil }, "a channel that stores nothing gets expiration 0")
            let history = try await http.get("/v1/channels/\(id)", key: Self.backend)
            #expect(
                await eventually {
                    let detail = try? await http.get("/v1/channels/\(id)", key: Self.backend)
                    return detail?.json?["deliveries"]?.arrayValue?.first?["attempts"]?.numberValue == 3
                }, "\(history.text)")

            // APNs no longer knows the channel: the broadcast is refused for good and the channel marked deleted.
            sender.enqueueChannelAnswers([.refused(status: 400, reason: "ChannelNotRegistered")])
            #expect(try await http.post("/v1/channels/\(id)/update", key: Self.backend, #"{"contentState":{"hp":2}}"#).status == 202)
            #expect(try await eventually { try await harness.store.channel(id: UUID(uuidString: id)!)?.isDeleted == true })
        }
    }

    /// Priority 10 counts against each channel's hourly budget: past it a broadcast goes out at priority 5
    /// and the answer says why. A channel that stores no message has the larger budget (APNs gives such
    /// channels the higher publishing budget); each channel has its own.
    @Test(arguments: TestDatabase.available)
    func priority10BroadcastsSpendEachChannelsBudget(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(
            ServerOptions(store: database, sender: sender) {
                $0.hourlyPriority10Budget = 2
                $0.frequentHourlyPriority10Budget = 3
            }
        ) { harness in
            let stored = try #require(try await Self.create(harness, name: "stored", policy: 1).json?["id"]?.stringValue)
            let scores = try #require(try await Self.create(harness, name: "scores", policy: 0).json?["id"]?.stringValue)
            var downgraded: [String: [Int]] = [:]
            for (name, id) in [("stored", stored), ("scores", scores)] {
                for index in 0..<4 {
                    let answer = try await harness.http.post(
                        "/v1/channels/\(id)/update", key: Self.backend, #"{"contentState":{"n":\#(index)},"priority":10}"#)
                    #expect(answer.status == 202, "\(answer.text)")
                    if let reason = answer.json?["downgraded"]?.arrayValue?.first?["reason"]?.stringValue {
                        #expect(reason.contains("budget"), "\(reason)")
                        downgraded[name, default: []].append(index)
                    }
                }
            }
            #expect(downgraded["stored"] == [2, 3], "a storing channel has the hourly budget (2)")
            #expect(downgraded["scores"] == [3], "a channel without storage has the larger budget (3)")
            #expect(await eventually { sender.broadcasts.count == 8 })
            let priorities = sender.broadcasts.map(\.priority.rawValue)
            #expect(priorities.filter { $0 == 5 }.count == 3 && priorities.filter { $0 == 10 }.count == 5, "\(priorities)")
        }
    }

    @Test(.enabled(if: HeavyTests.isEnabled, HeavyTests.skipped), .exclusive)
    func theChannelLimitIsReportedBeforeAPNsRefuses() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender)) { harness in
            for index in 0..<10_000 {  // APNs' limit per app and environment
                _ = try await harness.store.createChannel(
                    ChannelRecord(
                        name: "c\(index)", bundleID: "com.example.rangers", apnsChannelID: "id\(index)", storagePolicy: 0, createdAt: Date()))
            }
            let refused = try await Self.create(harness, name: "one-more")
            #expect(refused.status == 409 && refused.errorRule == "channelLimit", "\(refused.text)")
            #expect(sender.channelsAtAPNs.isEmpty, "APNs was not asked")
            sender.enqueueChannelAnswers([.refused(status: 400, reason: "FeatureNotEnabled")])
            let other = try await harness.http.post(
                "/v1/channels", key: Self.backend, #"{"name":"x","bundleId":"com.example.other","storagePolicy":1}"#)
            #expect(other.status == 409 && other.errorRule == "featureNotEnabled", "\(other.text)")
            for bad in [
                #"{"name":"x","bundleId":"b","storagePolicy":2}"#, #"{"name":"x","bundleId":"b"}"#,
                #"{"name":"x","bundleId":"b","storagePolicy":0,"ttl":1}"#,
            ] {
                let response = try await harness.http.post("/v1/channels", key: Self.backend, bad)
                #expect(response.status == 400, "\(bad): \(response.text)")
            }
        }
    }
}
