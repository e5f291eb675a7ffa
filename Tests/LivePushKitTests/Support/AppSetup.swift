import Foundation
import LivePushKit
import LivePushTesting
import Testing

/// What a test of the reporter against a real `livepush serve` starts from: a journal folder, the simulator,
/// the server over it, the backend, one user's token source and one simulated iPhone.
struct AppSetup {
    let directory: URL
    let apns: SimulatedAPNs
    let server: TestServer
    let backend: Backend
    /// The user's tokens, minted by the backend: the app's credential unless a test gives another.
    let tokens: UserTokens
    let iPhone: SimulatedIPhone

    /// A reporter's configuration sending through `transport`: its journal in `directory` (or in its
    /// subfolder `journal`), the user's token as credential unless `credential` says otherwise, and the
    /// iPhone's id as device id unless `onIPhone` is false.
    func configuration(
        transport: ForwardingTransport, credential: LivePushCredential? = nil, journal: String? = nil, onIPhone: Bool = true
    ) -> LivePushConfiguration {
        let tokens = tokens
        return kitConfiguration(
            directory: journal.map { directory.appendingPathComponent($0) } ?? directory, bundleID: apns.bundleID,
            credential: credential ?? .userToken { try await tokens.token(renew: $0) }, transport: transport,
            deviceID: onIPhone ? iPhone.id : nil)
    }

    /// Whether an update the backend sends to `activityID` is accepted and reaches the iPhone, which then
    /// shows `event` as the activity's event description.
    func updateReaches(_ activityID: String, event: String) async throws -> Bool {
        let state: [String: Any] = ["currentHealthLevel": 0.5, "eventDescription": event]
        guard try await backend.update(activity: activityID, contentState: state) == 202 else { return false }
        return await eventually {
            (try? await apns.simulator.world.activity(id: activityID).contentState["eventDescription"]?.stringValue) == event
        }
    }

    /// An activity the iPhone starts itself (ActivityKit's `Activity.request`).
    func startActivity() async throws -> SimulatedActivity {
        try await apns.startActivity(on: iPhone, contentState: ["currentHealthLevel": 1, "eventDescription": "go"])
    }
}

/// Runs `body` with an `AppSetup` for `user` (user tokens valid `tokenTTL` seconds), the server started
/// with `options`; stops everything afterwards.
func withAppSetup<Result>(
    user: String = "app-user", tokenTTL: Int = 3600, _ options: ServerOptions = ServerOptions(), _ body: (AppSetup) async throws -> Result
) async throws -> Result {
    try await withTemporaryDirectory { directory in
        try await withSimulatedServer(options) { apns, server in
            let backend = Backend(server: server)
            let setup = AppSetup(
                directory: directory, apns: apns, server: server, backend: backend,
                tokens: UserTokens(backend: backend, userID: user, ttl: tokenTTL), iPhone: try await apns.addIPhone())
            return try await body(setup)
        }
    }
}
