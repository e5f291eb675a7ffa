import APNsCore
import Foundation
import LivePushKit
import LivePushTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where each push-to-start token came from (ActivityKit's property, read at launch and on every
/// foreground, or its stream) travels with the token to a real `livepush serve`, which shows it.
// A hang guard, not a speed target: the time a test waits for a place in LivePushTesting's ScopeGate
// (behind an `.exclusive` suite, on a busy machine) counts against it.
@Suite(.timeLimit(.minutes(10)))
struct PushToStartSourceTests {
    @Test(arguments: TestStore.available)
    func eachTokensSourceReachesTheServer(store: TestStore) async throws {
        try await withAppSetup(user: "dee", ServerOptions(store: store)) { setup in
            let activity = try await setup.startActivity()
            let transport = ForwardingTransport(target: setup.server.url)
            let reporter = try LivePushReporter(
                setup.configuration(transport: transport))
            let shown = { try await setup.backend.pushToStartTokens(shownWith: activity.id).first }
            try await whileRunning(reporter) {
                try await whileFollowing(setup.apns.app(on: setup.iPhone, reportingTo: reporter)) {
                    // At launch the app reads the property before the stream yields anything.
                    #expect(await eventually { (try? await shown())?["source"] as? String == "property" })
                    let first = try #require(try await shown())
                    #expect(first["token"] as? String == DeviceToken.shorten(setup.iPhone.pushToStartToken))
                    #expect(first["refreshedAt"] is String)

                    // ActivityKit rotates the token: the stream yields it.
                    let rotated = try await setup.apns.simulator.world.rotatePushToStartToken(deviceID: setup.iPhone.id)
                    #expect(
                        await eventually {
                            let token = try? await shown()
                            return token?["token"] as? String == DeviceToken.shorten(rotated) && token?["source"] as? String == "stream"
                        })
                }
            }
            // What the uploader sent: each PUT /v1/push-to-start-tokens body names its source.
            let sources = transport.log.compactMap { sent -> String? in
                let body = (try? JSONSerialization.jsonObject(with: Data(sent.body.utf8))) as? [String: Any]
                guard body?["deviceId"] != nil, body?["activityId"] == nil else { return nil }
                return body?["source"] as? String
            }
            #expect(sources.first == "property" && sources.last == "stream" && Set(sources) == ["property", "stream"], "\(sources)")
        }
    }
}

extension Backend {
    /// The push-to-start tokens the operator's view of an activity lists (its user's, for its type), as
    /// `PushToStartTokenStored` objects.
    func pushToStartTokens(shownWith activityID: String) async throws -> [[String: Any]] {
        var request = URLRequest(url: server.url.appendingPathComponent("/v1/operator/activities/\(activityID)"))
        request.setValue("Bearer \(server.operatorKey)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let view = (try JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let entries = view?["pushToStartTokens"] as? [[String: Any]] ?? []
        return entries.compactMap { $0["token"] as? [String: Any] }
    }
}
