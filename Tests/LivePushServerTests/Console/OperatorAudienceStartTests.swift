import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// The console's API lists audience starts with the group sends, newest first under one cursor, and
/// details one with its progress (its targets are counted, not listed). On SQLite and PostgreSQL.
@Suite struct OperatorAudienceStartTests {
    static let key = TestServer.operatorKey

    /// An audience start accepted `seconds` after a fixed moment (for `users`, or everyone when nil).
    static func start(_ seconds: Double, users: [String]?) -> AudienceStart {
        AudienceStart(
            attributesType: "MatchAttributes", userIDs: users,
            template: SendTemplate(
                payload: Data(#"{"aps":{"event":"start"}}"#.utf8), timestamp: Date(timeIntervalSince1970: 1_800_000_000),
                requestedPriority: .immediate, importance: .routine),
            acceptedAt: Date(timeIntervalSince1970: 1_800_000_000 + seconds), createdBy: "backend")
    }

    @Test(arguments: TestDatabase.available)
    func audienceStartsAreListedAndDetailed(database: TestStore) async throws {
        try await withServer(ServerOptions(store: database, sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let http = harness.http
            // 55 starts a second apart, the newest for everyone: more than a page of 50.
            let starts = (0..<55).map { Self.start(Double($0), users: $0 == 54 ? nil : ["fan-\($0)", "fan-x"]) }
            for start in starts { try await harness.store.createAudienceStart(start) }

            let pages = try await OperatorRoutesTests.pages(http, "/v1/operator/sends", items: "sends")
            #expect(pages.map(\.count) == [50, 5])
            #expect(pages.flatMap { $0 } == starts.reversed().map(\.sendID.lowercased), "newest first, each once")

            let first = try await http.get("/v1/operator/sends", key: Self.key)
            let newest = try #require(first.json?["sends"]?.arrayValue?.first, "\(first.text)")
            #expect(newest["kind"]?.stringValue == "start" && newest["groupId"] == nil, "\(newest)")
            #expect(newest["audience"]?["everyone"]?.boolValue == true && newest["audience"]?["attributesType"] == "MatchAttributes", "\(newest)")
            let listed = try #require(first.json?["sends"]?.arrayValue?[1])
            #expect(listed["audience"]?["userCount"]?.numberValue == 2 && listed["audience"]?["everyone"]?.boolValue == false, "\(listed)")

            let detail = try await http.get("/v1/operator/sends/\(starts[0].sendID.lowercased)", key: Self.key)
            #expect(detail.status == 200, "\(detail.text)")
            let send = try #require(detail.json?["send"])
            #expect(send["kind"]?.stringValue == "start" && send["state"]?.stringValue == "accepted", "\(detail.text)")
            #expect(send["counts"]?["noToken"]?.numberValue == 0 && send["counts"]?["budget"]?.numberValue == 0, "\(detail.text)")
            #expect(detail.json?["failed"]?.arrayValue?.isEmpty == true && detail.json?["skipped"]?.arrayValue?.isEmpty == true)

            let unknown = try await http.get("/v1/operator/sends/\(UUID().lowercased)", key: Self.key)
            #expect(unknown.status == 404 && unknown.errorField == "sendId", "\(unknown.text)")
        }
    }
}
