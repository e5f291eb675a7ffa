import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The simulator on a clock moved only by its control API (`POST /v1/clock`), the server on that clock,
/// and one user's iPhone whose app the test plays: it reports the push-to-start token and registers
/// every activity it finds running, as LivePushKit does.
struct RenewalHarness {
    static let user = "u1"
    static let attributes: JSONValue = ["hero": "Panda"]
    static let renewal = #"{"renewBefore":"7h45m","attributes":{"hero":"Panda"},"alert":{"title":"The quest goes on"}}"#

    let sim: SimulatedAPNs
    let server: TestServer
    let iPhone: SimulatedIPhone

    /// Runs `body` with the simulator and server on the simulator's clock (based on a manual clock, so
    /// that only the control API moves it) and a webhook receiver.
    static func run(
        _ database: TestStore, configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: (RenewalHarness, WebhookReceiver) async throws -> Void
    ) async throws {
        try await withWebhookReceiver { receiver in
            try await withSimulator(SimulatorOptions(clock: ManualWallClock(Date()))) { sim in
                var options = ServerOptions(store: database) {
                    $0.useWebhook(receiver.url)
                    configure(&$0)
                }
                options.clock = sim.clock
                try await withServer(options, over: sim) { server in
                    let iPhone = try await sim.addIPhone(name: "phone")
                    try await body(RenewalHarness(sim: sim, server: server, iPhone: iPhone), receiver)
                }
            }
        }
    }

    /// The app stores the iPhone's push-to-start token for the user.
    func storePushToStartToken() async throws {
        let stored = try await server.http.put(
            "/v1/push-to-start-tokens", key: TestServer.appKey,
            #"""
            {"userId":"\#(Self.user)","deviceId":"phone","bundleId":"\#(sim.bundleID)","attributesType":"AdventureAttributes","environment":"sandbox","token":"\#(iPhone.pushToStartToken)"}
            """#)
        #expect(stored.status == 200, "\(stored.text)")
    }

    /// The app starts its first activity and registers it, opted into renewal.
    func startFirstActivity() async throws -> String {
        let activity = try await sim.startActivity(on: iPhone, attributes: Self.attributes, contentState: ["hour": 0])
        let registered = try await register(activity.id, token: activity.pushToken, extra: #","groups":["party"],"renewal":\#(Self.renewal)"#)
        #expect(registered.status == 201, "\(registered.text)")
        return activity.id
    }

    func register(_ id: String, token: String, extra: String = "") async throws -> TestResponse {
        try await server.http.post(
            "/v1/activities", key: TestServer.appKey,
            #"{"activityId":"\#(id)","pushToken":"\#(token)","bundleId":"\#(sim.bundleID)","attributesType":"AdventureAttributes","environment":"sandbox","userId":"\#(Self.user)"\#(extra)}"#
        )
    }

    /// Moves the simulated iPhones' (and the server's) time forward through the control API.
    func advance(minutes: Int) async throws {
        let control = try #require(sim.controlURL)
        var request = URLRequest(url: control.appendingPathComponent("/v1/clock"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"advanceSeconds":\#(minutes * 60)}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    /// The activities running on the iPhone, oldest first.
    func activeOnDevice() async throws -> [ActivitySnapshot] {
        try await sim.simulator.world.device(id: iPhone.id).activities.filter { $0.state == .active || $0.state == .stale }.sorted {
            $0.startedAt < $1.startedAt
        }
    }

    /// The activity with `id` as the server shows it (with its renewal).
    func detail(_ id: String) async throws -> JSONValue {
        try await server.http.get("/v1/activities/\(id)", key: TestServer.backendKey).json ?? .null
    }
}
