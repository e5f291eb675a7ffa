import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The console's API: pages with cursors, an activity with its history and its user's push-to-start
/// tokens, the test push recorded as the console's, the overview's figures and group sends with their
/// counts. On SQLite and PostgreSQL.
@Suite struct OperatorRoutesTests {
    static let key = TestServer.operatorKey

    /// Every page of a list, following `next`.
    static func pages(_ http: TestHTTP, _ path: String, items: String) async throws -> [[String]] {
        var pages: [[String]] = []
        var cursor: String?
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let page = try await http.get(path + (cursor.map { "\(separator)cursor=\($0)" } ?? ""), key: key)
            try #require(page.status == 200, "\(page.text)")
            pages.append(page.json?[items]?.arrayValue?.compactMap { $0["activityId"]?.stringValue ?? $0["sendId"]?.stringValue } ?? [])
            cursor = page.json?["next"]?.stringValue
        } while cursor != nil
        return pages
    }

    @Test(arguments: TestDatabase.available)
    func listsArePagedWithCursors(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let http = harness.http
            // 120 activities: 60 of user "pager", the others in group "crowd"; ids with characters a URL escapes.
            for index in 0..<120 {
                let registration = ActivityRegistration(
                    activityID: String(format: "act %03d/&", index), pushToken: DeviceToken(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }),
                    bundleID: "com.example.rangers", attributesType: "AdventureAttributes", environment: .sandbox,
                    userID: index % 2 == 0 ? "pager" : "other", groups: index % 2 == 0 ? [] : ["crowd"], at: Date())
                _ = try await harness.store.register(registration)
            }
            let all = try await Self.pages(http, "/v1/operator/activities", items: "activities")
            #expect(all.map(\.count) == [50, 50, 20])
            #expect(all.flatMap { $0 } == all.flatMap { $0 }.sorted() && Set(all.flatMap { $0 }).count == 120)
            let user = try await Self.pages(http, "/v1/operator/activities?userId=pager", items: "activities")
            #expect(user.map(\.count) == [50, 10])
            let group = try await Self.pages(http, "/v1/operator/activities?groupId=crowd", items: "activities")
            #expect(group.flatMap { $0 }.count == 60 && Set(group.flatMap { $0 }).isDisjoint(with: Set(user.flatMap { $0 })))

            let both = try await http.get("/v1/operator/activities?userId=other&groupId=crowd", key: Self.key)
            #expect(both.json?["activities"]?.arrayValue?.count == 50, "the user's activities in the group: \(both.text)")
            let neither = try await http.get("/v1/operator/activities?userId=pager&groupId=crowd", key: Self.key)
            #expect(neither.status == 200 && neither.json?["activities"]?.arrayValue?.isEmpty == true, "\(neither.text)")
            let forged = try await http.get("/v1/operator/activities?cursor=bm90LWEtY3Vyc29y", key: Self.key)
            #expect(forged.status == 404 && forged.errorField == "cursor" && forged.errorRule == "exists", "\(forged.text)")
            let malformed = try await http.get("/v1/operator/activities?cursor=%3Cscript%3E", key: Self.key)
            #expect(malformed.status == 400 && malformed.errorField == "cursor", "\(malformed.text)")
            let sendCursor = try await http.get("/v1/operator/sends?cursor=bm90LWEtY3Vyc29y", key: Self.key)
            #expect(sendCursor.status == 404 && sendCursor.errorField == "cursor", "\(sendCursor.text)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func anActivityShowsItsHistoryTokensBudgetAndTheConsolesTestPush(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            let http = harness.http
            let user = try await harness.mintUserToken("rider")
            #expect(
                try await http.post("/v1/activities", key: user, registrationJSON(activityID: "ride <1>", token: IdentityTests.hex(0x51))).status
                    == 201)
            let stored = try await http.put(
                "/v1/push-to-start-tokens", key: user,
                #"{"deviceId":"phone","bundleId":"com.example.rangers","attributesType":"AdventureAttributes","environment":"sandbox","token":"\#(IdentityTests.hex(0x52))"}"#
            )
            #expect(stored.status == 200, "\(stored.text)")
            let path = "/v1/operator/activities/ride%20%3C1%3E"
            // A backend update at priority 10 (counted in the budget), refused by APNs.
            sender.enqueue([.success(APNsResponse(status: 400, apnsID: "apns-1", reason: .badExpirationDate, timestamp: nil))])
            let update = try await http.post(
                "/v1/activities/ride%20%3C1%3E/update", key: TestServer.backendKey, #"{"contentState":{"hp":1},"priority":10}"#)
            #expect(update.status == 202, "\(update.text)")
            #expect(try await eventually { try await http.get(path, key: Self.key).json?["deliveries"]?.arrayValue?.count == 1 })

            // The test push: confirmed by repeating the id, 404 before anything for a missing activity.
            let unconfirmed = try await http.post(path + "/test-push", key: Self.key, #"{"confirmActivityId":"ride","contentState":{"hp":2}}"#)
            #expect(
                unconfirmed.status == 409 && unconfirmed.errorField == "confirmActivityId" && unconfirmed.errorRule == "confirm",
                "\(unconfirmed.text)")
            let missing = try await http.post(
                "/v1/operator/activities/nobody/test-push", key: Self.key, #"{"confirmActivityId":"nobody","contentState":{}}"#)
            #expect(missing.status == 404 && missing.errorField == "activityId", "\(missing.text)")
            let unknown = try await http.post(
                path + "/test-push", key: Self.key, #"{"confirmActivityId":"ride <1>","contentState":{},"priority":10}"#)
            #expect(unknown.status == 400 && unknown.errorField == "priority" && unknown.errorRule == "unknown", "\(unknown.text)")
            sender.enqueue([.success(APNsResponse(status: 200, apnsID: "apns-2", reason: nil, timestamp: nil))])
            let test = try await http.post(path + "/test-push", key: Self.key, #"{"confirmActivityId":"ride <1>","contentState":{"hp":2}}"#)
            #expect(test.status == 202, "\(test.text)")
            let pushID = try #require(test.json?["pushIds"]?.arrayValue?.first?.stringValue)

            #expect(try await eventually { try await http.get(path, key: Self.key).json?["deliveries"]?.arrayValue?.count == 2 })
            let detail = try #require(try await http.get(path, key: Self.key).json)
            #expect(detail["activity"]?["activityId"]?.stringValue == "ride <1>")
            #expect(detail["consolePushIds"]?.arrayValue?.compactMap(\.stringValue) == [pushID], "recorded as sent from the console")
            let deliveries = try #require(detail["deliveries"]?.arrayValue)
            let console = try #require(deliveries.first { $0["pushId"]?.stringValue == pushID })
            #expect(
                console["outcome"]?.stringValue == "accepted" && console["priority"]?.numberValue == 5, "a test push spends no priority-10 budget")
            let refused = try #require(deliveries.first { $0["pushId"]?.stringValue != pushID })
            #expect(
                refused["reason"]?.stringValue == "BadExpirationDate" && refused["apnsId"]?.stringValue == "apns-1"
                    && refused["status"]?.numberValue == 400)
            #expect(
                detail["budget"]?["used"]?.numberValue == 1 && detail["budget"]?["limit"]?.numberValue == 24
                    && detail["budget"]?["left"]?.numberValue == 23)
            let tokens = try #require(detail["pushToStartTokens"]?.arrayValue)
            #expect(tokens.count == 1 && tokens.first?["token"]?["deviceId"]?.stringValue == "phone" && tokens.first?["stale"]?.boolValue == false)
            #expect(tokens.first?["token"]?["token"]?.stringValue?.count ?? 64 < 20, "push tokens only shortened")

            // The overview counts both outcomes and names the failure's remedy from APNsCore.
            let overview = try #require(try await http.get("/v1/operator/overview", key: Self.key).json)
            #expect((overview["pushesPerSecond"]?["accepted"]?.numberValue ?? 0) > 0)
            #expect((overview["pushesPerSecond"]?["rejected"]?.numberValue ?? 0) > 0)
            let failure = try #require(overview["failures"]?.arrayValue?.first)
            #expect(failure["reason"]?.stringValue == "BadExpirationDate" && failure["count"]?.numberValue == 1)
            #expect(failure["remedy"]?.stringValue == APNsReason.badExpirationDate.remedy)
        }
    }

    @Test(arguments: TestDatabase.available)
    func groupSendsAreListedNewestFirstWithTheirCounts(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            try await GroupSendTests.register(harness, ["g1", "g2", "g3"], group: "team")
            _ = try await http.post(
                "/v1/channels", key: TestServer.backendKey, #"{"name":"scores","bundleId":"com.example.rangers","storagePolicy":0}"#)
            var sendIDs: [String] = []
            for hp in 1...3 {
                let answer = try await http.post(
                    "/v1/groups/team/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)},"importance":"timeSensitive"}"#)
                sendIDs.append(try #require(answer.json?["sendId"]?.stringValue, "\(answer.text)"))
            }
            #expect(
                try await eventually {
                    let sends = try await http.get("/v1/operator/sends", key: Self.key).json?["sends"]?.arrayValue ?? []
                    return sends.count == 3 && sends.allSatisfy { $0["state"]?.stringValue == "finished" }
                })
            let sends = try #require(try await http.get("/v1/operator/sends", key: Self.key).json?["sends"]?.arrayValue)
            #expect(sends.compactMap { $0["sendId"]?.stringValue } == sendIDs.reversed(), "newest first")
            #expect(sends.allSatisfy { $0["counts"]?["targeted"]?.numberValue == 3 && $0["counts"]?["pending"]?.numberValue == 0 })
            // The channel's broadcast is listed beside the group sends with its outcome.
            let channelID = try #require(
                try await http.get("/v1/channels", key: TestServer.backendKey).json?["channels"]?.arrayValue?.first?["id"]?.stringValue)
            let broadcast = try await http.post("/v1/channels/\(channelID)/update", key: TestServer.backendKey, #"{"contentState":{"score":"1-0"}}"#)
            #expect(broadcast.status == 202, "\(broadcast.text)")
            let broadcastID = try #require(broadcast.json?["pushIds"]?.arrayValue?.first?.stringValue)
            #expect(
                try await eventually {
                    let channels = try await http.get("/v1/operator/sends", key: Self.key).json?["broadcasts"]?.arrayValue ?? []
                    return channels.first?["deliveries"]?.arrayValue?.first?["outcome"]?.stringValue == "accepted"
                })
            let channels = try #require(try await http.get("/v1/operator/sends", key: Self.key).json?["broadcasts"]?.arrayValue)
            #expect(channels.count == 1 && channels.first?["name"]?.stringValue == "scores" && channels.first?["channelId"]?.stringValue == channelID)
            #expect(channels.first?["deliveries"]?.arrayValue?.compactMap { $0["pushId"]?.stringValue } == [broadcastID])
            #expect(channels.first?["pending"]?.arrayValue?.isEmpty == true)

            let overview = try #require(try await http.get("/v1/operator/overview", key: Self.key).json)
            #expect(overview["channels"]?.arrayValue?.first?["count"]?.numberValue == 1)
            #expect(overview["channels"]?.arrayValue?.first?["limit"]?.numberValue == 10_000)
            #expect(overview["openGroupSends"]?.numberValue == 0)
        }
    }

    /// A token's age counts from its own arrival (registration, then each rotation), not from the
    /// activity's: a push or a state change since does not make the token younger.
    @Test(arguments: TestDatabase.available)
    func aTokensAgeCountsFromItsRegistrationOrRotation(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender())) { harness in
            let http = harness.http
            let now = Date()
            _ = try await harness.store.register(
                ActivityRegistration(
                    activityID: "aged", pushToken: try DeviceToken(hex: IdentityTests.hex(0x71)), bundleID: "com.example.rangers",
                    attributesType: "AdventureAttributes", environment: .sandbox, at: now - 3 * 3600))
            let age = { () async throws -> Double in
                try #require(try await http.get("/v1/operator/activities/aged", key: Self.key).json?["tokenAgeSeconds"]?.numberValue)
            }
            #expect((3 * 3600...3 * 3600 + 300).contains(try await age()), "from the registration")
            // An update and its delivery move the activity's updatedAt, not the token's age.
            #expect(try await http.post("/v1/activities/aged/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
            #expect(
                try await eventually { try await http.get("/v1/operator/activities/aged", key: Self.key).json?["deliveries"]?.arrayValue?.count == 1 }
            )
            #expect((3 * 3600...3 * 3600 + 300).contains(try await age()), "a push does not make the token younger")
            _ = try await harness.store.rotateToken(activityID: "aged", newToken: try DeviceToken(hex: IdentityTests.hex(0x72)), at: now - 600)
            #expect((600...900).contains(try await age()), "from the rotation")
            let detail = try #require(try await http.get("/v1/operator/activities/aged", key: Self.key).json)
            #expect(detail["tokenSince"]?.stringValue == ISO8601DateFormatter().string(from: now - 600))
        }
    }

    /// The overview's instances: the one answering first, with no leases; then every instance holding
    /// leases on the shared store, named by its claimers (`<instance>-w<n>`, `<instance>-webhook`).
    @Test(arguments: TestDatabase.available)
    func theOverviewListsInstancesAndTheirClaims(database: TestStore) async throws {
        try await withServer(
            ServerOptions(store: database, sender: FakeSender()) {
                $0.workerCount = 0
                $0.instanceID = "eu-1"
            }
        ) { harness in
            let http = harness.http
            try await GroupSendTests.register(harness, ["c1", "c2", "c3"], group: "crew")
            for id in ["c1", "c2", "c3"] {
                #expect(try await http.post("/v1/activities/\(id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
            }
            let idle = try #require(try await http.get("/v1/operator/overview", key: Self.key).json?["instances"]?.arrayValue)
            #expect(idle.count == 1 && idle.first?["instanceId"]?.stringValue == "eu-1" && idle.first?["thisInstance"]?.boolValue == true)
            #expect(idle.first?["outbox"]?.numberValue == 0 && idle.first?["leaseUntil"] == nil)

            // Another instance's workers hold the pushes: two of them, one push and two.
            _ = try await harness.store.claim(owner: "eu-2-w0", limit: 1, now: Date(), lease: 600)
            _ = try await harness.store.claim(owner: "eu-2-w7", limit: 2, now: Date(), lease: 600)
            let busy = try #require(try await http.get("/v1/operator/overview", key: Self.key).json?["instances"]?.arrayValue)
            #expect(busy.compactMap { $0["instanceId"]?.stringValue } == ["eu-1", "eu-2"], "this instance first: \(busy)")
            let other = try #require(busy.last)
            #expect(other["thisInstance"]?.boolValue == false && other["outbox"]?.numberValue == 3, "\(other)")
            #expect(other["groupPages"]?.numberValue == 0 && other["webhooks"]?.numberValue == 0 && other["leaseUntil"]?.stringValue != nil)
        }
    }
}
