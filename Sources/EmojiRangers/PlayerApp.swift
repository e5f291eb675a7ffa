import Foundation
import LiveActivity
import LivePushAPIClient
import LivePushKit
import LivePushKitSimulation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One player's Emoji Rangers app on their simulated iPhone, as an iOS app runs LivePushKit: one
/// ``LivePushReporter`` with its own journal (under the demo's temporary folder) and the player's user
/// token (minted by the demo's backend, `POST /v1/users/{userId}/app-tokens`, and minted again after a
/// 401), fed by the simulated adapter, once per attributes type the app follows, as `LivePush.track` is
/// called once per type: the party adventure (push-to-start too, in the party's group) and the side quest.
struct PlayerApp: Sendable {
    let hero: Hero
    let userID: String
    let deviceID: String
    let reporter: LivePushReporter
    let adapters: [SimulatedActivityAdapter]

    /// Every report this app owes the server, and what the server holds of it.
    var status: ReportStatus {
        get async { await reporter.status }
    }

    /// The app of `hero` on `deviceID`, its journal in `journalFolder`.
    static func make(
        hero: Hero, deviceID: String, demo: EmojiRangersDemo, journalFolder: URL
    ) async throws(DemoError) -> PlayerApp {
        let userID = "player-\(hero.id)"
        let backend = demo.backend
        let configuration = LivePushConfiguration(
            serverURL: URL(string: demo.serverURL)!, bundleID: EmojiRangersDemo.bundleID, environment: .sandbox,
            journalDirectory: journalFolder,
            credential: .userToken { _ in
                // The app asks its backend for the signed-in player's token (again after a 401); the backend
                // grants the party's group, the only group the app puts the player's activities in.
                let call = APICall("POST", "/v1/users/\(userID)/app-tokens")
                return try await call.run {
                    try await backend.mintAppToken(
                        path: .init(userId: userID), body: .json(.init(ttlSeconds: 3600, groups: [EmojiRangersDemo.partyGroup])))
                }.token
            },
            deviceID: deviceID, transport: SessionTransport(session: demo.session),
            retry: RetryPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1)),
            logger: demo.logger)
        let reporter = try await DemoError.starting("\(hero.name)'s app (LivePushKit)") { try LivePushReporter(configuration) }
        let world = demo.simulator.world
        let adapters = [
            SimulatedActivityAdapter(
                world: world, deviceID: deviceID, bundleID: EmojiRangersDemo.bundleID, attributesType: EmojiRangersDemo.attributesType,
                contentState: AdventureContentState.self, sink: reporter, pushToStart: .streamAndProperty,
                groups: { _ in [EmojiRangersDemo.partyGroup] }, logger: demo.logger),
            SimulatedActivityAdapter(
                world: world, deviceID: deviceID, bundleID: EmojiRangersDemo.bundleID, attributesType: SideQuest.attributesType,
                sink: reporter, pushToStart: .none, logger: demo.logger),
        ]
        return PlayerApp(hero: hero, userID: userID, deviceID: deviceID, reporter: reporter, adapters: adapters)
    }

    /// Runs the app until the calling task is cancelled: the reporter sends, the adapters follow the iPhone.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await reporter.run() }
            for adapter in adapters { group.addTask { await adapter.run() } }
        }
    }
}
