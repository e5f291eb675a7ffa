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
    /// Registers a simulated activity with the app key (`POST /v1/activities` through the generated client),
    /// in `groups`, for `userID` when given; throws unless it is created (201).
    func register(_ created: SimulatedActivity, groups: [String] = [], userID: String? = nil) async throws {
        let registered = try await client(TestServer.appKey).registerActivity(
            body: .json(
                .init(
                    activityId: created.id, pushToken: created.pushToken, bundleId: "com.example.rangers",
                    attributesType: "AdventureAttributes", environment: .sandbox,
                    userId: userID.map { .init(value1: $0) }, groups: groups)))
        _ = try registered.created
    }
}

extension TestServer {
    /// Stores an app key made of `letter` (an app's shipped key) and opens an installation with it
    /// (`POST /v1/installations`): the installation's id and token.
    func openInstallation(appKeyOf letter: Character) async throws -> (id: String, token: String) {
        let appKey = "lp_app_" + String(repeating: letter, count: 43)
        _ = try await store.createAPIKey(name: "app", scope: .app, sha256Hash: APIKeys.hash(appKey), at: Date())
        let opened = try await http.post("/v1/installations", key: appKey, "")
        return (try #require(opened.json?["installationId"]?.stringValue, "\(opened.text)"), try #require(opened.json?["token"]?.stringValue))
    }
}

extension TestServer {
    /// A user token the backend mints for `user` (`POST /v1/users/{user}/app-tokens`), valid `ttl` seconds
    /// (the server's default when nil), granting `groups` when given; checks that it was minted for `user`.
    func mintUserToken(_ user: String, ttl: Int? = nil, groups: [String]? = nil) async throws -> String {
        var fields = [String]()
        if let ttl { fields.append(#""ttlSeconds":\#(ttl)"#) }
        if let groups { fields.append(#""groups":[\#(groups.map { "\"\($0)\"" }.joined(separator: ","))]"#) }
        let body = fields.isEmpty ? "" : "{" + fields.joined(separator: ",") + "}"
        let minted = try await http.request("POST", "/v1/users/\(user)/app-tokens", key: TestServer.backendKey, json: body.isEmpty ? nil : body)
        #expect(minted.status == 201, "\(minted.text)")
        #expect(minted.json?["userId"]?.stringValue == user)
        return try #require(minted.json?["token"]?.stringValue)
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
