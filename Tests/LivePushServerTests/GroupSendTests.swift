import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

@testable import PushStore

/// Group sends end to end: one record when accepted, sent in pages, recovered after a crash, and the
/// per-activity rules (coalescing, timestamps, budget) applied when each page is sent. Both stores.
@Suite struct GroupSendTests {
    /// Runs `body` with a server on `database` that has no delivery worker, as the instance "fixed": what
    /// it accepts waits until ``restartWithWorkers(_:budget:)`` starts the instance again with one.
    static func withWaitingServer<Result>(
        _ database: TestStore, _ sender: FakeSender, _ body: (TestServer) async throws -> Result
    ) async throws -> Result {
        try await withServer(
            ServerOptions(store: database, sender: sender) {
                $0.workerCount = 0
                $0.instanceID = "fixed"
            }, body)
    }

    static func restartWithWorkers(_ harness: TestServer, budget: Int? = nil) async throws {
        try await harness.restart { configuration in
            configuration.port = 0
            configuration.workerCount = 1
            configuration.instanceID = "fixed"
            configuration.pollInterval = 0.02
            configuration.retryBaseDelay = 0.02
            configuration.retryMaximumDelay = 0.1
            configuration.lifecycleInterval = 3600
            if let budget { configuration.hourlyPriority10Budget = budget }
            configuration.appKeys = [TestServer.appKey]
            configuration.backendKeys = [TestServer.backendKey]
        }
    }

    static func register(_ harness: TestServer, _ ids: [String], group: String = "party") async throws {
        for (index, id) in ids.enumerated() {
            let hex = String(format: "%064x", 0x5EED_0000 + index)
            let answer = try await harness.http.post(
                "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: id, token: hex, groups: [group]))
            #expect(answer.status == 201, "\(answer.text)")
        }
    }

    /// The hp each token was sent, in order.
    static func sentHP(_ sender: FakeSender) throws -> [String: [Double]] {
        var sent = [String: [Double]]()
        for request in sender.requests {
            let hp = try #require(try JSONValue.parse(request.body)["aps"]?["content-state"]?["hp"]?.numberValue)
            sent[request.token.hex, default: []].append(hp)
        }
        return sent
    }

    /// Accepting writes one record, no push: the 202 comes before any member is read. A worker that died
    /// holding a page gives it back when its instance starts again; every member gets the push once.
    @Test(arguments: TestDatabase.available)
    func a202IsDurableAndAPageLeftByACrashIsSentAfterRestart(database: TestStore) async throws {
        let sender = FakeSender()
        try await Self.withWaitingServer(database, sender) { harness in
            let ids = (1...5).map { "m\($0)" }
            try await Self.register(harness, ids)
            let answer = try await harness.http.post("/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":4}}"#)
            #expect(answer.status == 202 && answer.json?["state"]?.stringValue == "accepted", "\(answer.text)")
            #expect(answer.json?["counts"]?["targeted"]?.numberValue == 0)
            #expect(try await harness.store.outboxDepth() == 0, "no push row per member at acceptance")
            // A worker of this instance claimed the first page and died before sending it.
            let page = try #require(try await harness.store.claimPage(owner: "fixed-w0", pageSize: 3, now: Date(), lease: 3600))
            #expect(page.activities.count == 3)

            try await Self.restartWithWorkers(harness)
            let progress = try await harness.finishedGroupSend(answer)
            #expect(progress["counts"]?["sent"]?.numberValue == 5 && progress["counts"]?["targeted"]?.numberValue == 5, "\(progress)")
            #expect(progress["counts"]?["pending"]?.numberValue == 0)
            #expect(sender.requests.count == 5, "each member once")
            for id in ids {
                let history = try await harness.store.deliveries(activityID: id, limit: 5)
                #expect(
                    history.count == 1 && history.first?.outcome == .accepted
                        && history.first?.sendID?.uuidString.lowercased() == answer.json?["sendId"]?.stringValue)
            }
        }
    }

    /// A proxy in front of APNs answers one member with a 600-character reason: the page is recorded
    /// all the same (the reason shortened to what the store keeps), the others with it, once; the
    /// metric's reason label is `other`.
    @Test(arguments: TestDatabase.available)
    func anOverlongReasonInAPageIsShortenedAndNeverBlocksTheOthers(database: TestStore) async throws {
        let sender = FakeSender()
        let long = String(repeating: "proxy says no ", count: 43)
        sender.enqueue([.success(APNsResponse(status: 400, reason: APNsReason(rawValue: long)))])
        try await withServer(ServerOptions(store: database, sender: sender)) { harness in
            let ids = (1...3).map { "r\($0)" }
            try await Self.register(harness, ids)
            let answer = try await harness.http.post("/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":2}}"#)
            #expect(answer.status == 202, "\(answer.text)")
            let progress = try await harness.finishedGroupSend(answer)
            #expect(progress["counts"]?["sent"]?.numberValue == 2 && progress["counts"]?["failed"]?.numberValue == 1, "\(progress)")
            var history: [DeliveryRecord] = []
            for id in ids { history += try await harness.store.deliveries(activityID: id, limit: 5) }
            #expect(history.count == 3, "one record per member")
            let refused = try #require(history.first { $0.outcome == .rejected })
            #expect(refused.reason?.count == DeliveryResult.maximumReasonLength && refused.reason?.hasSuffix("…") == true)
            #expect(sender.requests.count == 3, "the page is not sent again")
            let metrics = harness.server.metrics.render()
            #expect(metrics.contains(#"reason="other""#) && !metrics.contains("proxy says no"))
        }
    }

    /// A push accepted for a member after the group send replaces the group's push to it; a newer routine
    /// update to the group replaces the older one; each member's timestamps only increase.
    @Test(arguments: TestDatabase.available)
    func newerPushesReplaceAWaitingGroupSend(database: TestStore) async throws {
        let sender = FakeSender()
        try await Self.withWaitingServer(database, sender) { harness in
            try await Self.register(harness, ["a", "b"])
            let first = try await harness.http.post(
                "/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":1},"importance":"timeSensitive"}"#)
            let single = try await harness.http.post(
                "/v1/activities/a/update", key: TestServer.backendKey, #"{"contentState":{"hp":2},"importance":"timeSensitive"}"#)
            #expect(first.status == 202 && single.status == 202)
            try await Self.restartWithWorkers(harness)
            let progress = try await harness.finishedGroupSend(first)
            #expect(progress["counts"]?["sent"]?.numberValue == 1 && progress["counts"]?["coalesced"]?.numberValue == 1, "\(progress)")
            #expect(try await eventually { try await harness.store.outboxDepth() == 0 })
            let a = String(format: "%064x", 0x5EED_0000)
            let b = String(format: "%064x", 0x5EED_0001)
            #expect(try Self.sentHP(sender) == [a: [2], b: [1]], "a got only the newer push")
            let groupRecord = try await harness.store.deliveries(activityID: "a", limit: 5).first { $0.sendID != nil }
            #expect(groupRecord?.outcome == .coalesced)

            // Two routine group updates waiting: the older one is replaced for every member.
            try await harness.restart { configuration in
                configuration.port = 0
                configuration.workerCount = 0
                configuration.instanceID = "fixed"
                configuration.appKeys = [TestServer.appKey]
                configuration.backendKeys = [TestServer.backendKey]
            }
            let older = try await harness.http.post("/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":5}}"#)
            let newer = try await harness.http.post("/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":6}}"#)
            try await Self.restartWithWorkers(harness)
            #expect(try await harness.finishedGroupSend(older)["counts"]?["coalesced"]?.numberValue == 2)
            #expect(try await harness.finishedGroupSend(newer)["counts"]?["sent"]?.numberValue == 2)
            #expect(try Self.sentHP(sender) == [a: [2, 6], b: [1, 6]])
            // Timestamps only increase per token, in the order sent.
            var last = [String: Double]()
            for request in sender.requests {
                let timestamp = try #require(try JSONValue.parse(request.body)["aps"]?["timestamp"]?.numberValue)
                if let previous = last[request.token.hex] { #expect(timestamp > previous) }
                last[request.token.hex] = timestamp
            }
        }
    }

    /// Priority 10 within each member's hourly budget, then priority 5, counted as downgraded.
    @Test(arguments: TestDatabase.available)
    func thePriority10BudgetAppliesPerMember(database: TestStore) async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(store: database, sender: sender) { $0.hourlyPriority10Budget = 1 }) { harness in
            try await Self.register(harness, ["a", "b", "c"])
            let first = try await harness.http.post(
                "/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":1},"priority":10}"#)
            #expect(try await harness.finishedGroupSend(first)["counts"]?["downgraded"]?.numberValue == 0)
            let second = try await harness.http.post(
                "/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":2},"priority":10}"#)
            let progress = try await harness.finishedGroupSend(second)
            #expect(progress["counts"]?["downgraded"]?.numberValue == 3 && progress["counts"]?["sent"]?.numberValue == 3, "\(progress)")
            #expect(
                sender.requests.map(\.headers.priority) == [.immediate, .immediate, .immediate, .conservesPower, .conservesPower, .conservesPower])
            let record = try #require(try await harness.store.deliveries(activityID: "b", limit: 1).first)
            #expect(record.priority == .conservesPower && record.downgradeReason?.contains("budget") == true)
        }
    }

    /// A page that takes longer than the claim lease to send stays its worker's (the claim is renewed
    /// while it is sent): another instance asking for work meanwhile gets nothing, and each member gets
    /// the push once.
    @Test(arguments: TestDatabase.available)
    func aPageSlowerThanItsLeaseIsNotHandedToAnotherInstance(database: TestStore) async throws {
        let sender = FakeSender()
        // A lease long enough that a renewal delayed by a loaded machine (the whole suite in parallel on
        // two cores, PostgreSQL included) still lands before it ends; the page takes more than twice it.
        sender.latency = .seconds(14)
        try await withServer(
            ServerOptions(store: database, sender: sender) {
                $0.claimLease = 6
                $0.instanceID = "fixed"
                $0.workerCount = 1
            }
        ) { harness in
            let ids = ["a", "b", "c"]
            try await Self.register(harness, ids)
            let answer = try await harness.http.post("/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":3}}"#)
            #expect(answer.status == 202, "\(answer.text)")
            #expect(await eventually { sender.requests.count == ids.count }, "the worker is sending its page")
            // Another instance polls for work for twice the lease while the page's answers are awaited.
            let until = ContinuousClock.now + .seconds(12)
            while ContinuousClock.now < until {
                let stolen = try await harness.store.claimPage(owner: "other-instance", pageSize: 128, now: Date(), lease: 30)
                #expect(stolen?.firstID == nil, "the page was handed out while its worker was still sending it")
                if stolen != nil { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            let progress = try await harness.finishedGroupSend(answer)
            #expect(progress["counts"]?["sent"]?.numberValue == 3, "\(progress)")
            #expect(sender.requests.count == ids.count, "each member once")
            let metrics = try await harness.http.get("/metrics").text
            let renewals = metrics.split(separator: "\n").first { $0.hasPrefix("livepush_server_claim_renewals_total ") }
            #expect(renewals.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 >= 1 } == true, "\(renewals ?? "no renewal counter")")
        }
    }

    @Test func anUnknownSendIsNotFound() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let missing = try await harness.http.get("/v1/sends/\(UUID().uuidString.lowercased())", key: TestServer.backendKey)
            #expect(missing.status == 404 && missing.errorRule == "exists" || missing.status == 404, "\(missing.text)")
            #expect(try await harness.http.get("/v1/sends/not-a-uuid", key: TestServer.backendKey).status == 404)
            #expect(try await harness.http.get("/v1/sends/\(UUID().uuidString)", key: TestServer.appKey).status == 403)
        }
    }
}
