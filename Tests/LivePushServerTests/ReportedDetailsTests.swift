import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// What the app and APNs report beside a token or an answer, kept by the server and shown: where each
/// push-to-start token came from (stream or property) and when it was last reported, and the
/// `apns-unique-id` of each accepted push (development environment) in the delivery history.
@Suite struct ReportedDetailsTests {
    static func pushToStartJSON(token: String, source: String?) -> String {
        let sourceField = source.map { #","source":"\#($0)""# } ?? ""
        return
            #"{"userId":"rider","deviceId":"phone","bundleId":"com.example.rangers","attributesType":"AdventureAttributes","environment":"sandbox","token":"\#(token)"\#(sourceField)}"#
    }

    @Test(arguments: TestDatabase.available)
    func pushToStartSourceIsKeptAndShown(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let http = server.http
            let activity = try await sim.startActivity(name: "panda")
            try await server.register(activity, userID: "rider")
            let token = try await sim.addIPhone(name: "phone").pushToStartToken

            let fromProperty = try await http.put(
                "/v1/push-to-start-tokens", key: TestServer.appKey, Self.pushToStartJSON(token: token, source: "property"))
            #expect(fromProperty.status == 200, "\(fromProperty.text)")
            #expect(fromProperty.json?["source"]?.stringValue == "property")
            let firstRefresh = try #require(fromProperty.json?["refreshedAt"]?.stringValue)

            let fromStream = try await http.put(
                "/v1/push-to-start-tokens", key: TestServer.appKey, Self.pushToStartJSON(token: token, source: "stream"))
            #expect(fromStream.status == 200 && fromStream.json?["source"]?.stringValue == "stream", "\(fromStream.text)")
            #expect(fromStream.json?["id"] == fromProperty.json?["id"])
            #expect(try #require(fromStream.json?["refreshedAt"]?.stringValue) >= firstRefresh)

            // The operator's activity view lists the user's push-to-start tokens with their source.
            let view = try await http.get("/v1/operator/activities/\(activity.id)", key: TestServer.operatorKey)
            #expect(view.status == 200, "\(view.text)")
            let shown = try #require(view.json?["pushToStartTokens"]?.arrayValue?.first?["token"])
            #expect(shown["source"]?.stringValue == "stream")
            #expect(shown["refreshedAt"]?.stringValue == fromStream.json?["refreshedAt"]?.stringValue)

            let unsaid = try await http.put("/v1/push-to-start-tokens", key: TestServer.appKey, Self.pushToStartJSON(token: token, source: nil))
            #expect(unsaid.status == 200 && unsaid.json?["source"] == nil, "an app that does not say leaves no stale source: \(unsaid.text)")
        }
    }

    @Test
    func anUnknownSourceIsRefusedNamingTheAcceptedValues() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { server in
            let answer = try await server.http.put(
                "/v1/push-to-start-tokens", key: TestServer.appKey, Self.pushToStartJSON(token: String(repeating: "ab", count: 32), source: "guess"))
            #expect(answer.status == 400 && answer.errorField == "source" && answer.errorRule == "oneOf", "\(answer.text)")
            let message = try #require(answer.json?["error"]?["message"]?.stringValue)
            #expect(message.contains("stream") && message.contains("property"), "\(message)")
        }
    }

    /// The simulator, like APNs in development, answers each accepted push with an `apns-unique-id`: the
    /// history keeps the one the device's push was logged with, for activity and group sends alike.
    @Test(arguments: TestDatabase.available)
    func theHistoryShowsEachPushsUniqueID(database: TestStore) async throws {
        try await withSimulatedServer(ServerOptions(store: database)) { sim, server in
            let http = server.http
            let activity = try await sim.startActivity(name: "owl")
            try await server.register(activity, groups: ["den"])

            let update = try await http.post("/v1/activities/\(activity.id)/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
            #expect(update.status == 202, "\(update.text)")
            let group = try await http.post("/v1/groups/den/update", key: TestServer.backendKey, #"{"contentState":{"hp":2}}"#)
            #expect(group.status == 202, "\(group.text)")
            _ = try await server.finishedGroupSend(group)

            var deliveries: [JSONValue] = []
            #expect(
                try await eventually {
                    deliveries =
                        try await http.get("/v1/activities/\(activity.id)", key: TestServer.backendKey).json?["deliveries"]?.arrayValue ?? []
                    return deliveries.count == 2
                })
            let logged = Dictionary(
                await sim.simulator.world.pushes(limit: 10).compactMap { push in push.apnsUniqueID.map { (push.apnsID.lowercased(), $0) } },
                uniquingKeysWith: { first, _ in first })
            #expect(logged.count == 2)
            for delivery in deliveries {
                let pushID = try #require(delivery["pushId"]?.stringValue)
                let uniqueID = delivery["apnsUniqueId"]?.stringValue
                #expect(uniqueID != nil && uniqueID == logged[pushID], "\(delivery)")
            }
        }
    }
}
