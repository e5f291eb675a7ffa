import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The console's series and a group send's members over HTTP, and the refusal of an operator key the
/// server's database does not hold (it names that database). On SQLite and PostgreSQL.
@Suite struct OperatorSeriesRoutesTests {
    static let key = TestServer.operatorKey

    @Test(arguments: TestDatabase.available)
    func theSeriesIsAnHourOfMinutesWithTheirOutcomesAndLatency(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let http = harness.http
            let empty = try await http.get("/v1/operator/series", key: Self.key)
            let minutes = try #require(empty.json?["minutes"]?.arrayValue, "\(empty.text)")
            #expect(minutes.count == 60)
            #expect(minutes.allSatisfy { $0["latencySamples"] == 0 && $0["latencyP50Ms"] == nil && $0["counts"]?["accepted"] == 0 })

            // One push accepted 250 ms after it was: the current minute counts it, p50 and p99 within its bucket.
            _ = try await harness.store.register(
                ActivityRegistration(
                    activityID: "ride-8841", pushToken: DeviceToken(bytes: (0..<32).map { _ in 7 }), bundleID: "com.example.rangers",
                    attributesType: "AdventureAttributes", environment: .sandbox, userID: "ava", groups: [], at: Date()))
            let now = Date()
            let item = OutboxItem(
                target: .activity(id: "ride-8841"), kind: .update, payload: Data(#"{"aps":{"timestamp":1,"event":"update"}}"#.utf8),
                priority: .immediate, importance: .timeSensitive, acceptedAt: now.addingTimeInterval(-0.25))
            _ = try await harness.store.enqueue([item])
            #expect(try await harness.store.claim(owner: "w", limit: 1, now: now, lease: 30).count == 1)
            _ = try await harness.store.complete(
                owner: "w", results: [DeliveryResult(pushID: item.pushID, outcome: .accepted, sentAt: now, status: 200, attempts: 1)], at: now)
            let series = try await http.get("/v1/operator/series", key: Self.key)
            // The minute that holds it (the last one, unless a minute began since).
            let last = try #require(series.json?["minutes"]?.arrayValue?.first { $0["latencySamples"] != 0 }, "\(series.text)")
            #expect(last["counts"]?["accepted"] == 1 && last["latencySamples"] == 1, "\(last)")
            let p50 = try #require(last["latencyP50Ms"]?.numberValue)
            let p99 = try #require(last["latencyP99Ms"]?.numberValue)
            #expect(p50 >= 199.5 && p50 <= 251.2 && p99 >= p50 && p99 <= 251.2, "\(p50), \(p99)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func aGroupSendsMembersAreReadByItsIdAndAnUnknownOneIsNotFound(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let http = harness.http
            #expect(
                try await http.post(
                    "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "m-1", token: IdentityTests.hex(0x31), groups: ["crew"])
                ).status == 201)
            let accepted = try await http.post("/v1/groups/crew/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
            let sendID = try #require(accepted.json?["sendId"]?.stringValue, "\(accepted.text)")
            let send = try await http.get("/v1/operator/sends/\(sendID)", key: Self.key)
            #expect(send.status == 200 && send.json?["send"]?["sendId"]?.stringValue == sendID, "\(send.text)")
            #expect(
                send.json?["failed"]?.arrayValue?.isEmpty == true && send.json?["skipped"]?.arrayValue?.isEmpty == true,
                "no page sent yet: \(send.text)")
            let unknown = try await http.get("/v1/operator/sends/\(UUID().uuidString)", key: Self.key)
            #expect(unknown.status == 404 && unknown.errorField == "sendId", "\(unknown.text)")
            let backend = try await http.get("/v1/operator/sends/\(sendID)", key: TestServer.backendKey)
            #expect(backend.status == 403, "\(backend.text)")
        }
    }

    /// The console's sign-in shows this message: a key made in another database (the walkthrough's trap:
    /// `keys create` on the default livepush.sqlite, the server on dev.sqlite) is sent to the server's.
    @Test func anUnknownOperatorKeyIsSentToTheServersDatabase() async throws {
        try await withServer(ServerOptions(store: .sqlite, sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let refused = try await harness.http.get("/v1/operator/overview", key: APIKeys.generate(scope: .operator))
            let message = refused.json?["error"]?["message"]?.stringValue ?? ""
            #expect(refused.status == 401 && refused.errorRule == "apiKey", "\(refused.text)")
            #expect(message.contains("on this server's database, \(harness.store.location)"), "\(message)")
            #expect(message.contains("livepush keys create --scope operator --name NAME --database \(harness.store.location)"), "\(message)")
            // The backend's routes say nothing of the database.
            let backend = try await harness.http.get("/v1/sends/\(UUID().uuidString)", key: APIKeys.generate(scope: .backend))
            #expect(backend.status == 401 && !(backend.json?["error"]?["message"]?.stringValue ?? "").contains("database"), "\(backend.text)")
        }
    }
}
