import Foundation
import LiveActivity
import LivePushAPIClient
import LivePushServer
import LivePushTesting
import Testing

@testable import PushStore

/// The stores the end-to-end tests run on: LivePushTesting's `TestStore.available` (SQLite always,
/// PostgreSQL when `LIVEPUSH_TEST_POSTGRES_URL` is set: `eval "$(scripts/postgres-test-db.sh)"` sets it),
/// saying once how to enable PostgreSQL when it is not.
enum TestDatabase {
    static let available: [TestStore] = {
        if TestStore.postgresURLFromEnvironment == nil {
            print(
                "LivePushServerTests: PostgreSQL end-to-end runs are skipped; set LIVEPUSH_TEST_POSTGRES_URL to enable them (eval \"$(scripts/postgres-test-db.sh)\")"
            )
        }
        return TestStore.available
    }()
}

extension TestServer {
    /// Plain HTTP/1.1 requests to the server's API.
    var http: TestHTTP { TestHTTP(port: port) }

    /// The progress of the group send a `POST /v1/groups/…` answered, once it has finished (or what it
    /// was when `timeout` ran out).
    func finishedGroupSend(_ answer: TestResponse, timeout: Duration = .seconds(20)) async throws -> JSONValue {
        let sendID = try #require(answer.json?["sendId"]?.stringValue, "not a group send answer: \(answer.text)")
        var progress = JSONValue.null
        _ = try await eventually(timeout: timeout) {
            progress = try await http.get("/v1/sends/\(sendID)", key: backendKey).json ?? .null
            return progress["state"]?.stringValue == "finished"
        }
        return progress
    }
}

extension TestServer {
    /// Registers a simulated activity with the app key (`POST /v1/activities` through the generated client);
    /// throws unless it is created (201).
    func register(_ created: SimulatedActivity, groups: [String] = []) async throws {
        let registered = try await client(TestServer.appKey).registerActivity(
            body: .json(
                .init(
                    activityId: created.id, pushToken: created.pushToken, bundleId: "com.example.rangers",
                    attributesType: "AdventureAttributes", environment: .sandbox, groups: groups)))
        _ = try registered.created
    }
}

/// A registration body for tests.
func registrationJSON(
    activityID: String, token: String, bundleID: String = "com.example.rangers",
    environment: String = "sandbox", groups: [String] = [], userID: String? = nil
) -> String {
    let groupList = groups.map { "\"\($0)\"" }.joined(separator: ",")
    let user = userID.map { ",\"userId\":\"\($0)\"" } ?? ""
    return
        #"{"activityId":"\#(activityID)","pushToken":"\#(token)","bundleId":"\#(bundleID)","attributesType":"AdventureAttributes","environment":"\#(environment)","groups":[\#(groupList)]\#(user)}"#
}

extension PushStore {
    /// How many activities are stored (read from the table: no server code needs the count).
    func activityCount() async throws -> Int {
        let store = try #require(self as? SQLPushStore)
        return try await store.backend.read { session throws(PushStoreError) in
            try await session.first("SELECT COUNT(*) AS n FROM activities")?.int("n") ?? 0
        }
    }
}
