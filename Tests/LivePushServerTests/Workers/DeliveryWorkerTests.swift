import APNsClient
import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// Delivery through the outbox against a scripted APNs stand-in.
@Suite struct DeliveryWorkerTests {
    let token = String(repeating: "cd", count: 32)

    private func register(_ harness: TestServer, _ id: String = "a1", frequent: Bool = false) async throws {
        let body = registrationJSON(activityID: id, token: id == "a1" ? token : String(repeating: "ef", count: 32))
        let json = frequent ? String(body.dropLast()) + #","frequentPushesEnabled":true}"# : body
        let response = try await harness.http.post("/v1/activities", key: TestServer.appKey, json)
        #expect(response.status == 201)
    }

    @Test func acceptedUpdateIsSentWithItsFixedPayloadAndRecorded() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender)) { harness in
            try await register(harness)
            let response = try await harness.http.post(
                "/v1/activities/a1/update", key: TestServer.backendKey,
                #"{"contentState":{"hp":3},"importance":"timeSensitive","alert":{"title":"Hi","sound":"default"}}"#)
            #expect(response.status == 202)
            let pushID = try #require(response.json?["pushIds"]?.arrayValue?.first?.stringValue)
            #expect(await eventually { sender.requests.count == 1 })
            let request = try #require(sender.requests.first)
            #expect(request.token.hex == token)
            #expect(request.headers.topic == "com.example.rangers.push-type.liveactivity")
            #expect(request.headers.priority == .immediate)
            #expect(request.headers.apnsID?.uuidString.lowercased() == pushID.lowercased())
            let payload = try JSONValue.parse(request.body)
            #expect(payload["aps"]?["event"]?.stringValue == "update")
            #expect(payload["aps"]?["content-state"]?["hp"]?.numberValue == 3)
            #expect(payload["aps"]?["timestamp"]?.numberValue != nil)

            #expect(
                try await eventually {
                    let detail = try await harness.http.get("/v1/activities/a1", key: TestServer.backendKey)
                    return detail.json?["deliveries"]?.arrayValue?.first?["outcome"]?.stringValue == "accepted"
                })
            let detail = try await harness.http.get("/v1/activities/a1", key: TestServer.backendKey)
            let delivery = try #require(detail.json?["deliveries"]?.arrayValue?.first)
            #expect(delivery["pushId"]?.stringValue?.lowercased() == pushID.lowercased())
            #expect(delivery["priority"]?.numberValue == 10)
            #expect(delivery["sentAt"]?.stringValue != nil && delivery["acceptedAt"]?.stringValue != nil)
            #expect(detail.json?["activity"]?["lastContentState"]?["hp"]?.numberValue == 3)
            let metrics = try await harness.http.get("/metrics")
            #expect(metrics.text.contains(#"livepush_server_pushes_total{outcome="accepted",reason="",priority="10"} 1"#))
        }
    }

    @Test func timestampsIncreasePerActivityWithinOneSecond() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender)) { harness in
            try await register(harness)
            for hp in 1...3 {
                let response = try await harness.http.post(
                    "/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)},"priority":10}"#)
                #expect(response.status == 202)
            }
            #expect(await eventually { sender.requests.count == 3 })
            let stamps = try sender.requests.map { try #require(try JSONValue.parse($0.body)["aps"]?["timestamp"]?.numberValue) }
            #expect(Set(stamps).count == 3, "each push to one activity gets its own, newer timestamp")
        }
    }

    @Test func budgetDowngradesToPriorityFiveAndSaysWhy() async throws {
        try await withServer(
            ServerOptions(sender: FakeSender()) {
                $0.workerCount = 0
                $0.hourlyPriority10Budget = 2
                $0.frequentHourlyPriority10Budget = 3
            }
        ) { harness in
            try await register(harness, "a1")
            try await register(harness, "a2", frequent: true)
            var downgradedA1 = 0
            var downgradedA2 = 0
            for hp in 1...4 {
                let one = try await harness.http.post(
                    "/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)},"priority":10}"#)
                downgradedA1 += one.json?["downgraded"]?.arrayValue?.count ?? 0
                let two = try await harness.http.post(
                    "/v1/activities/a2/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)},"priority":10}"#)
                downgradedA2 += two.json?["downgraded"]?.arrayValue?.count ?? 0
            }
            #expect(downgradedA1 == 2)
            #expect(downgradedA2 == 1)
            let pending = try await harness.store.pendingItems(activityID: "a1")
            #expect(pending.map(\.priority) == [.immediate, .immediate, .conservesPower, .conservesPower])
            #expect(pending.last?.requestedPriority == .immediate)
            #expect(pending.last?.downgradeReason?.contains("budget of 2") == true)
            let metrics = try await harness.http.get("/metrics")
            #expect(metrics.text.contains("livepush_server_budget_downgrades_total 3"))
        }
    }

    @Test func routineUpdatesCoalesceWhileWaiting() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            try await register(harness)
            var ids: [String] = []
            for hp in 1...3 {
                let response = try await harness.http.post(
                    "/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)},"importance":"routine"}"#)
                ids.append(try #require(response.json?["pushIds"]?.arrayValue?.first?.stringValue))
                if hp > 1 { #expect(response.json?["coalesced"]?.arrayValue?.count == 1) }
            }
            let pending = try await harness.store.pendingItems(activityID: "a1")
            #expect(pending.count == 1)
            #expect(pending.first?.pushID.uuidString.lowercased() == ids.last?.lowercased())
            let metrics = try await harness.http.get("/metrics")
            #expect(metrics.text.contains("livepush_server_coalesced_updates_total 2"))
        }
    }

    /// An accepted push wakes an idle worker: it is sent long before the next poll would find it.
    @Test func anAcceptedPushIsSentWithoutWaitingForThePoll() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender) { $0.pollInterval = 60 }) { harness in
            try await register(harness)
            // Let both workers make their first (empty) claim and start waiting.
            try await Task.sleep(for: .milliseconds(300))
            let started = Date()
            #expect(try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
            #expect(await eventually(timeout: .seconds(30)) { sender.requests.count == 1 })
            #expect(Date().timeIntervalSince(started) < 30, "sent after the wake-up, not the 60 s poll")
        }
    }

    /// `Unregistered` and `ExpiredToken` (410, docs/apns-protocol.md §4.3) both kill the token.
    @Test(arguments: [APNsReason.unregistered, .expiredToken])
    func deadTokenIsMarkedInvalidAndNotUsedAgain(reason: APNsReason) async throws {
        let sender = FakeSender()
        sender.enqueue([.success(APNsResponse(status: 410, apnsID: "x", reason: reason, timestamp: Date()))])
        try await withServer(ServerOptions(sender: sender)) { harness in
            try await register(harness)
            #expect(try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
            #expect(
                try await eventually {
                    try await harness.store.activity(id: "a1")?.tokenState.isValid == false
                })
            let refused = try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":2}}"#)
            #expect(refused.status == 409 && refused.errorRule == "validToken")
            #expect(try await eventually { try await harness.store.outboxDepth() == 0 })
            let history = try await harness.store.deliveries(activityID: "a1", limit: 10)
            #expect(history.first?.outcome == .rejected && history.first?.reason == reason.rawValue && history.first?.status == 410)
            #expect(sender.requests.count == 1)

            // The app reports the same token as current again (PUT, as POST would): it is used again.
            let token = try #require(try await harness.store.activity(id: "a1")?.pushToken.hex)
            let revalidated = try await harness.http.put("/v1/activities/a1/push-token", key: TestServer.appKey, #"{"pushToken":"\#(token)"}"#)
            #expect(revalidated.status == 200 && revalidated.json?["token"]?["valid"]?.boolValue == true)
            #expect(try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":3}}"#).status == 202)
            #expect(await eventually { sender.requests.count == 2 })
        }
    }

    /// The pushes a worker claims together go to APNs as one batch, not a task each, and each answer is
    /// read the one way: a dead token is marked invalid, a 503 is retried later (a batch of its own), the
    /// others are accepted; the outcomes are recorded on both stores.
    @Test(arguments: TestDatabase.available)
    func aClaimedBatchIsSentAsOneBatchAndEachAnswerIsRead(database: TestStore) async throws {
        let sender = FakeSender()
        sender.enqueue([
            .success(APNsResponse(status: 410, apnsID: "x", reason: .unregistered, timestamp: Date())),
            .success(APNsResponse(status: 503, reason: .serviceUnavailable)),
        ])
        let ids = ["b1", "b2", "b3", "b4"]
        // No worker while the pushes are accepted: the first claim after the restart takes all four.
        try await withServer(ServerOptions(store: database, sender: sender) { $0.workerCount = 0 }) { harness in
            for (number, id) in ids.enumerated() {
                let body = registrationJSON(activityID: id, token: String(repeating: "a\(number)", count: 32))
                #expect(try await harness.http.post("/v1/activities", key: TestServer.appKey, body).status == 201)
                let update = try await harness.http.post("/v1/activities/\(id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
                #expect(update.status == 202)
            }
            try await harness.restart { $0.workerCount = 1 }
            #expect(try await eventually { try await harness.store.outboxDepth() == 0 })
            #expect(sender.batches == [4, 1], "one batch of the four claimed together, then the retry")

            var records: [(id: String, record: DeliveryRecord)] = []
            for id in ids {
                let history = try await harness.store.deliveries(activityID: id, limit: 5)
                #expect(history.count == 1)
                records += history.map { (id, $0) }
            }
            let refused = records.filter { $0.record.outcome == .rejected }
            #expect(refused.count == 1 && refused.first?.record.reason == "Unregistered" && refused.first?.record.status == 410)
            #expect(records.filter { $0.record.outcome == .accepted }.map(\.record.attempts).sorted() == [1, 1, 2])
            for (id, record) in records {
                let valid = try await harness.store.activity(id: id)?.tokenState.isValid
                #expect(valid == (record.outcome == .accepted), "only the refused push's token is marked invalid")
            }
        }
    }

    @Test func serverErrorsAreRetriedUntilAccepted() async throws {
        let sender = FakeSender()
        sender.enqueue([
            .success(APNsResponse(status: 503, reason: .serviceUnavailable)),
            .failure(.connectionClosed(processed: false, detail: "reset")),
            .success(APNsResponse(status: 429, reason: .tooManyRequests)),
        ])
        try await withServer(ServerOptions(sender: sender)) { harness in
            try await register(harness)
            #expect(try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
            #expect(
                try await eventually {
                    try await harness.store.deliveries(activityID: "a1", limit: 1).first?.outcome == .accepted
                })
            let record = try #require(try await harness.store.deliveries(activityID: "a1", limit: 1).first)
            #expect(record.attempts == 4)
            #expect(sender.requests.count == 4)
        }
    }

    @Test func anOverlongReasonIsShortenedAndNeverBlocksTheOtherOutcomes() async throws {
        // A proxy in front of APNs answers 400 with a 600-character reason: the store keeps 500, and the
        // other push of the same batch is recorded too; the metric's reason label is `other`.
        let sender = FakeSender()
        let long = String(repeating: "proxy says no ", count: 43)
        sender.enqueue([.success(APNsResponse(status: 400, reason: APNsReason(rawValue: long)))])
        try await withServer(ServerOptions(sender: sender)) { harness in
            try await register(harness, "a1")
            try await register(harness, "a2")
            for id in ["a1", "a2"] {
                let update = try await harness.http.post("/v1/activities/\(id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
                #expect(update.status == 202)
            }
            #expect(try await eventually { try await harness.store.outboxDepth() == 0 })
            let records = try await ["a1", "a2"].asyncReduce([DeliveryRecord]()) { all, id in
                try await all + harness.store.deliveries(activityID: id, limit: 5)
            }
            #expect(records.count == 2)
            let refused = try #require(records.first { $0.outcome == .rejected })
            #expect(refused.reason?.count == DeliveryResult.maximumReasonLength && refused.reason?.hasSuffix("…") == true)
            #expect(records.contains { $0.outcome == .accepted })
            let metrics = harness.server.metrics.render()
            #expect(metrics.contains(#"reason="other""#) && !metrics.contains("proxy says no"))
        }
    }

    /// On the server's own clock: the first attempt meets a 503, the clock moves past the push's expiration,
    /// and the retry that comes due then ends the push as expired, with the last APNs error, unsent.
    @Test func retriesStopAtTheExpiration() async throws {
        let sender = FakeSender()
        sender.enqueue(Array(repeating: .success(APNsResponse(status: 503, reason: .serviceUnavailable)), count: 1000))
        let clock = ManualWallClock(Date())
        try await withServer(
            ServerOptions(sender: sender, clock: clock) {
                $0.retryBaseDelay = 0.2
                $0.retryMaximumDelay = 0.4
            }
        ) { harness in
            try await register(harness)
            let expiration = Int(clock.now().timeIntervalSince1970) + 10
            #expect(
                try await harness.http.post(
                    "/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1},"expiration":\#(expiration)}"#
                ).status == 202)
            await eventually { sender.requests.count == 1 }
            clock.advance(by: 60)
            try await eventually { try await harness.store.deliveries(activityID: "a1", limit: 1).first?.outcome == .expired }
            let record = try #require(try await harness.store.deliveries(activityID: "a1", limit: 1).first)
            #expect(record.reason?.contains("ServiceUnavailable") == true, "\(record.reason ?? "no reason")")
            #expect(sender.requests.count == 1, "the retry due after the expiration was not sent")
        }
    }

    @Test func endMarksTheActivityEndedAndGroupsFanOut() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender)) { harness in
            for (index, id) in ["g1", "g2", "g3"].enumerated() {
                let hex = String(repeating: "0\(index + 1)", count: 16)
                #expect(
                    try await harness.http.post(
                        "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: id, token: hex, groups: ["party"])
                    ).status == 201)
            }
            let update = try await harness.http.post("/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":5}}"#)
            #expect(update.status == 202 && update.json?["state"]?.stringValue == "accepted", "\(update.text)")
            let updated = try await harness.finishedGroupSend(update)
            #expect(updated["counts"]?["targeted"]?.numberValue == 3 && updated["counts"]?["sent"]?.numberValue == 3, "\(updated)")
            let end = try await harness.http.post(
                "/v1/activities/g2/end", key: TestServer.backendKey, #"{"contentState":{"hp":0},"dismissalDate":"+1m"}"#)
            #expect(end.status == 202)
            #expect(try await harness.store.activity(id: "g2")?.state == .ended)
            let groupEnd = try await harness.http.post("/v1/groups/party/end", key: TestServer.backendKey, #"{"contentState":{"hp":0}}"#)
            #expect(groupEnd.status == 202)
            // The ended member is skipped; the others get the end and are ended when their page is sent.
            let ended = try await harness.finishedGroupSend(groupEnd)
            #expect(ended["counts"]?["sent"]?.numberValue == 2 && ended["counts"]?["skipped"]?.numberValue == 1, "\(ended)")
            for id in ["g1", "g3"] { #expect(try await harness.store.activity(id: id)?.state == .ended) }
            let again = try await harness.http.post("/v1/activities/g1/update", key: TestServer.backendKey, #"{"contentState":{"hp":9}}"#)
            #expect(again.status == 409 && again.errorRule == "active")
            #expect(await eventually { sender.requests.count == 6 })
        }
    }

    /// A group's payloads are encoded once per distinct timestamp: each activity still gets its own,
    /// newer than its last one, in the payload it is sent.
    @Test func groupPayloadsCarryEachActivitysOwnTimestamp() async throws {
        let sender = FakeSender()
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
        try await withServer(ServerOptions(sender: sender, clock: clock)) { harness in
            for (index, id) in ["t1", "t2", "t3"].enumerated() {
                let hex = String(repeating: "a\(index + 1)", count: 16)
                #expect(
                    try await harness.http.post(
                        "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: id, token: hex, groups: ["party"])
                    ).status == 201)
            }
            // Two updates to t1 in the same second: its next timestamp is two seconds ahead of the others'.
            // Time-sensitive, so none is coalesced away while it waits.
            for hp in [1, 2] {
                #expect(
                    try await harness.http.post(
                        "/v1/activities/t1/update", key: TestServer.backendKey, #"{"contentState":{"hp":\#(hp)},"importance":"timeSensitive"}"#
                    ).status == 202)
            }
            let group = try await harness.http.post(
                "/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":7},"importance":"timeSensitive"}"#)
            #expect(group.status == 202)
            #expect(try await harness.finishedGroupSend(group)["counts"]?["sent"]?.numberValue == 3)
            #expect(await eventually { sender.requests.count == 5 })
            var sentTimestamps = [String: [Double]]()
            for request in sender.requests {
                let payload = try JSONValue.parse(request.body)
                let timestamp = try #require(payload["aps"]?["timestamp"]?.numberValue)
                sentTimestamps[request.token.hex, default: []].append(timestamp)
            }
            #expect(sentTimestamps[String(repeating: "a1", count: 16)]?.sorted() == [1_800_000_000, 1_800_000_001, 1_800_000_002])
            #expect(sentTimestamps[String(repeating: "a2", count: 16)] == [1_800_000_000])
            #expect(sentTimestamps[String(repeating: "a3", count: 16)] == [1_800_000_000])
            for id in ["t1", "t2", "t3"] {
                let stored = try #require(try await harness.store.activity(id: id)?.lastTimestamp?.timeIntervalSince1970)
                #expect(stored == (id == "t1" ? 1_800_000_002 : 1_800_000_000))
            }
        }
    }

    /// A push still waiting when its activity is dismissed is not sent: it ends `failed`, saying why.
    @Test func aPushForADismissedActivityIsNotSent() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender) { $0.workerCount = 0 }) { harness in
            try await register(harness)
            #expect(try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
            #expect(try await harness.http.post("/v1/activities/a1/dismissed", key: TestServer.appKey, "").status == 200)
            try await harness.restart { configuration in
                configuration.port = 0
                configuration.workerCount = 1
                configuration.pollInterval = 0.02
                configuration.appKeys = [TestServer.appKey]
                configuration.backendKeys = [TestServer.backendKey]
            }
            #expect(try await eventually { try await harness.store.outboxDepth() == 0 })
            #expect(sender.requests.isEmpty)
            let history = try await harness.store.deliveries(activityID: "a1", limit: 5)
            #expect(history.first?.outcome == .failed)
            #expect(history.first?.reason == "activity was dismissed before the push was sent")
        }
    }

    @Test func restartWithTheSameInstanceIDTakesBackItsClaimsAtOnce() async throws {
        let sender = FakeSender()
        try await withServer(
            ServerOptions(sender: sender) {
                $0.workerCount = 0
                $0.instanceID = "fixed"
            }
        ) { harness in
            try await register(harness)
            #expect(try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#).status == 202)
            // A worker of the earlier run claimed it and died: its claim would hold for the whole lease.
            let claimed = try await harness.store.claim(owner: "fixed-w0", limit: 10, now: Date(), lease: 3600)
            #expect(claimed.count == 1)
            try await harness.restart { configuration in
                configuration.port = 0
                configuration.workerCount = 1
                configuration.instanceID = "fixed"
                configuration.pollInterval = 0.02
                configuration.appKeys = [TestServer.appKey]
                configuration.backendKeys = [TestServer.backendKey]
            }
            #expect(try await eventually { try await harness.store.outboxDepth() == 0 })
            #expect(sender.requests.count == 1)
        }
    }
}
