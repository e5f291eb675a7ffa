import APNsCore
import APNsSimulator
import Foundation
import LivePushTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `withServer` over `withSimulator`: a user's backend test against `livepush serve` and a simulated
/// iPhone, on every store there is, and the webhook receiver.
@Suite struct ServerScopeTests {
    static func call(_ server: TestServer, _ method: String, _ path: String, key: String, _ json: String) async throws -> (Int, Data) {
        var request = URLRequest(url: server.url.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(json.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test(arguments: TestStore.available)
    func aBackendUpdateThroughTheServerReachesTheIPhone(store: TestStore) async throws {
        try await withSimulator { apns in
            try await withServer(ServerOptions(store: store), over: apns) { server in
                let activity = try await apns.startActivity(contentState: ["hp": 1])
                let registration =
                    #"{"activityId":"\#(activity.id)","pushToken":"\#(activity.pushToken)","bundleId":"\#(apns.bundleID)","attributesType":"AdventureAttributes","environment":"sandbox","userId":"ava"}"#
                #expect(try await Self.call(server, "POST", "v1/activities", key: server.appKey, registration).0 == 201)
                let update = try await Self.call(
                    server, "POST", "v1/activities/\(activity.id)/update", key: server.backendKey, #"{"contentState":{"hp":0.5}}"#)
                #expect(update.0 == 202)
                #expect(await eventually { (try? await apns.contentState(of: activity)["hp"]) == 0.5 })
            }
        }
    }

    /// The README's example: an iPhone, a user token as the backend mints it, the app's registration with
    /// it (the token names the user) and the backend's update, waited for with `eventually`.
    @Test func anUpdateReachesAvasIPhone() async throws {
        try await withSimulator { apns in
            try await withServer(over: apns) { server in
                let iPhone = try await apns.addIPhone(name: "Ava's iPhone")
                let activity = try await apns.startActivity(on: iPhone, contentState: ["score": 0])
                let ava = try await server.userToken(for: "ava")
                let registration =
                    #"{"activityId":"\#(activity.id)","pushToken":"\#(activity.pushToken)","bundleId":"\#(apns.bundleID)","attributesType":"AdventureAttributes","environment":"sandbox"}"#
                let registered = try await Self.call(server, "POST", "v1/activities", key: ava, registration)
                #expect(registered.0 == 201)
                let stored = try JSONSerialization.jsonObject(with: registered.1) as? [String: Any]
                #expect(stored?["userId"] as? String == "ava", "the token names the user")
                let update = try await Self.call(
                    server, "POST", "v1/activities/\(activity.id)/update", key: server.backendKey, #"{"contentState":{"score":1}}"#)
                #expect(update.0 == 202)
                try await eventually { try await apns.contentState(of: activity)["score"] == 1 }
                // Ava's token acts for Ava only: registering as someone else is refused.
                let other = registration.replacingOccurrences(of: #""environment""#, with: #""userId":"zed","environment""#)
                #expect(try await Self.call(server, "POST", "v1/activities", key: ava, other).0 == 403)
            }
        }
    }

    /// A simulator on a `ManualWallClock` that stands still while the test runs for minutes: a new
    /// connection verifies the provider token against that clock, so the tokens are signed on it (signed
    /// on the system's clock, they look issued in the future after a minute: 403 InvalidProviderToken).
    @Test func tokensAreSignedOnTheClockTheSimulatorChecksThemAgainst() async throws {
        let frozen = ManualWallClock(Date().addingTimeInterval(-600))  // the test "ran" ten minutes already
        try await withSimulator(SimulatorOptions(clock: frozen)) { apns in
            try await withServer(over: apns) { server in
                let activity = try await apns.startActivity(contentState: ["score": 0])
                let registration =
                    #"{"activityId":"\#(activity.id)","pushToken":"\#(activity.pushToken)","bundleId":"\#(apns.bundleID)","attributesType":"AdventureAttributes","environment":"sandbox","userId":"ava"}"#
                #expect(try await Self.call(server, "POST", "v1/activities", key: server.appKey, registration).0 == 201)
                _ = try apns.simulator.faults.add(FaultRule(goAwayAfterStreams: 1))  // each push on a new connection
                for score in 1...2 {
                    let update = try await Self.call(
                        server, "POST", "v1/activities/\(activity.id)/update", key: server.backendKey, #"{"contentState":{"score":\#(score)}}"#)
                    #expect(update.0 == 202)
                    try await eventually { try await apns.contentState(of: activity)["score"] == .number(Double(score)) }
                }
                let statuses = await apns.simulator.world.pushes(limit: 10).map(\.status)
                #expect(statuses == [200, 200], "no push refused for its provider token")
            }
        }
    }

    /// A condition that never holds fails the test at the caller's line, even when its result is ignored.
    @Test func eventuallyFailsTheTestWhenItTimesOut() async {
        var held = true
        await withKnownIssue {
            held = await eventually(timeout: .milliseconds(50)) { false }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("did not hold within") }
        }
        #expect(!held)
        #expect(await pollUntil(timeout: .milliseconds(50)) { false } == false, "pollUntil records nothing")
        #expect(await eventually { true })
    }

    @Test func aThrowingBodyStillStopsTheServer() async throws {
        struct Planned: Error {}
        var port = 0
        await #expect(throws: Planned.self) {
            try await withSimulator { apns in
                try await withServer(over: apns) { server in
                    port = server.port
                    throw Planned()
                }
            }
        }
        #expect(!(await SimulatorScopeTests.accepts(port: port)))
    }

    @Test func theWebhookReceiverKeepsWhatIsPostedAndStops() async throws {
        var url = URL(fileURLWithPath: "/")
        try await withWebhookReceiver { receiver in
            url = receiver.url
            var request = URLRequest(url: receiver.url)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"event":"token.invalid"}"#.utf8)
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 204)
            #expect(receiver.bodies.first?["event"] == "token.invalid")
        }
        #expect(!(await SimulatorScopeTests.accepts(port: url.port ?? 0)))
    }
}
