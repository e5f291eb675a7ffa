import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// The push-to-start budget per device holds across audience starts sent at the same time: a page's
/// starts are counted before they go out, so a second page to the same devices, on another worker while
/// the first page's pushes are still unanswered, finds the budget used.
@Suite struct AudienceStartBudgetTests {
    static let users = ["ava", "ben", "cleo"]

    @Test(arguments: TestDatabase.available)
    func twoStartsToTheSameUsersAtOnceKeepEachDevicesBudget(database: TestStore) async throws {
        let sender = GatedSender()
        let options = ServerOptions(store: database, sender: sender) {
            $0.pushToStartBudget = 1
            $0.workerCount = 2
        }
        try await withServer(options) { server in
            // Whatever happens, the held pages are answered before the server stops.
            defer { sender.open() }
            let http = server.http
            for (index, user) in Self.users.enumerated() {
                let stored = try await http.put(
                    "/v1/push-to-start-tokens", key: TestServer.appKey,
                    #"""
                    {"userId":"\#(user)","deviceId":"phone-\#(user)","bundleId":"com.example.rangers","attributesType":"AdventureAttributes","environment":"sandbox","token":"\#(IdentityTests.hex(UInt8(index + 1)))"}
                    """#)
                #expect(stored.status == 200, "\(stored.text)")
            }
            let body =
                #"{"userIds":["ava","ben","cleo"],"attributesType":"AdventureAttributes","attributes":{"hero":"Fan"},"contentState":{"hp":1},"alert":{"title":"Kick-off","body":"Follow the match"}}"#
            let first = try await http.post("/v1/starts", key: TestServer.backendKey, body)
            let second = try await http.post("/v1/starts", key: TestServer.backendKey, body)
            #expect(first.status == 202 && second.status == 202, "\(first.text) \(second.text)")
            let ids = [first, second].compactMap { $0.json?["sendId"]?.stringValue }
            #expect(ids.count == 2)

            // The first page to claim its devices' budget is held at APNs. The other page either finds
            // the budget used and finishes without sending (the budget holds), or goes out too (it
            // does not): wait for whichever happens.
            try await eventually {
                if sender.batches.count >= 2 { return true }
                for id in ids where try await http.get("/v1/sends/\(id)", key: TestServer.backendKey).json?["state"]?.stringValue == "finished" {
                    return true
                }
                return false
            }
            sender.open()
            let progress = [try await server.finishedGroupSend(first), try await server.finishedGroupSend(second)]

            let starts = sender.batches.flatMap { $0 }
            for index in Self.users.indices {
                let token = IdentityTests.hex(UInt8(index + 1))
                #expect(starts.count { $0.token.hex == token } == 1, "\(Self.users[index])'s device got one start, its budget")
            }
            let counts = progress.map { $0["counts"] }
            #expect(counts.map { $0?["targeted"]?.numberValue } == [3, 3], "\(progress)")
            #expect(counts.compactMap { $0?["sent"]?.numberValue }.reduce(0, +) == 3, "\(progress)")
            #expect(counts.compactMap { $0?["budget"]?.numberValue }.reduce(0, +) == 3, "the rest are skipped for the budget: \(progress)")
            #expect(counts.compactMap { $0?["skipped"]?.numberValue }.reduce(0, +) == 3, "\(progress)")
        }
    }
}
