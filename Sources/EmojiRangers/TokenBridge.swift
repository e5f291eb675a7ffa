import APNsCore
import Foundation
import Hummingbird
import LiveActivity
import LivePushAPIClient
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The app side of the demo. Each simulated iPhone posts every new token to its webhook, as the app's
/// `pushTokenUpdates` / `pushToStartTokenUpdates` observers would hand it over; the bridge then reports it
/// to the server through the app API exactly as the real app does: `POST /v1/activities` for an activity's
/// update token (with the player's user id and the party's group), `PUT /v1/push-to-start-tokens` for the
/// push-to-start token.
final class TokenBridge: Sendable {
    /// One player's app: who is signed in and which party they play in.
    struct Player: Sendable {
        var hero: Hero
        var userID: String
        var group: String
    }

    /// What the bridge has reported to the server.
    struct Ledger: Sendable {
        /// Activity id → the hero whose activity token was registered.
        var registeredActivities: [String: Hero] = [:]
        var pushToStartTokens = 0
        /// Registrations the server refused (or that could not be made), as messages.
        var failures: [String] = []
    }

    private let api: Client
    private let attributesType: String
    private let logger: Logger
    private let players = Mutex<[String: Player]>([:])
    private let ledger = Mutex(Ledger())
    private let running = Mutex<(task: Task<Void, any Error>?, group: ServiceGroup?, port: Int?)>((nil, nil, nil))

    init(api: Client, attributesType: String, logger: Logger) {
        self.api = api
        self.attributesType = attributesType
        self.logger = logger
    }

    /// Adds a player; their device's webhook URL is `webhookURL(for:)`.
    func add(_ player: Player) {
        players.withLock { $0[player.hero.id] = player }
    }

    /// The URL a player's simulated device posts its tokens to.
    func webhookURL(for hero: Hero) -> String {
        "http://127.0.0.1:\(running.withLock { $0.port } ?? 0)/players/\(hero.id)/tokens"
    }

    var current: Ledger { ledger.withLock { $0 } }

    /// Listens on 127.0.0.1 (a free port); returns once listening.
    func start() async throws(DemoError) {
        let router = Router()
        router.post("/players/:playerId/tokens") { [self] request, context -> Response in
            let playerID = context.parameters.get("playerId") ?? ""
            let body = try await request.body.collect(upTo: 64 * 1024)
            let status = await self.receive(playerID: playerID, body: Data(buffer: body))
            return Response(status: status)
        }
        let (bound, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0), serverName: "emoji-rangers-app"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(services: [app], logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var port: Int?
        for await value in bound { port = value }
        guard let port, port > 0 else {
            let result = await task.result
            if case .failure(let error) = result {
                throw .startFailed(component: "token bridge", detail: "\(error)")
            }
            throw .startFailed(component: "token bridge", detail: "it stopped before listening")
        }
        running.withLock { $0 = (task, group, port) }
    }

    func shutdown() async {
        let (task, group) = running.withLock { state in
            defer { state = (nil, nil, nil) }
            return (state.task, state.group)
        }
        await group?.triggerGracefulShutdown()
        _ = await task?.result
    }

    /// Handles one webhook post; answers 204 once the server took the token, else 4xx/502.
    private func receive(playerID: String, body: Data) async -> HTTPResponse.Status {
        guard let player = players.withLock({ $0[playerID] }) else {
            record(failure: "a token arrived for unknown player '\(playerID)'")
            return .notFound
        }
        guard let json = try? JSONValue.parse(body), let kind = json["kind"]?.stringValue,
            let token = json["token"]?.stringValue, let bundleID = json["bundleId"]?.stringValue,
            let environment = json["environment"]?.stringValue.flatMap(Components.Schemas.Environment.init(rawValue:))
        else {
            record(failure: "\(player.hero.name)'s device posted an unreadable token message")
            return .badRequest
        }
        do {
            switch kind {
            case "pushToken":
                guard let activityID = json["activityId"]?.stringValue else {
                    record(failure: "\(player.hero.name)'s device posted an activity token without its activity id")
                    return .badRequest
                }
                // The party's adventure joins the party's group; any other activity (the side quest) is the
                // player's alone.
                let type = json["attributesType"]?.stringValue ?? attributesType
                let registration = Components.Schemas.ActivityRegistration(
                    activityId: activityID, pushToken: token, bundleId: bundleID, attributesType: type, environment: environment,
                    userId: .init(value1: player.userID), groups: type == attributesType ? [player.group] : [])
                _ = try await APICall("POST", "/v1/activities").run { try await api.registerActivity(body: .json(registration)) }
                ledger.withLock { $0.registeredActivities[activityID] = player.hero }
            case "pushToStartToken":
                let pushToStart = Components.Schemas.PushToStartToken(
                    userId: .init(value1: player.userID), deviceId: json["deviceId"]?.stringValue ?? "", bundleId: bundleID,
                    attributesType: attributesType, environment: environment, token: token)
                _ = try await APICall("PUT", "/v1/push-to-start-tokens").run { try await api.storePushToStartToken(body: .json(pushToStart)) }
                ledger.withLock { $0.pushToStartTokens += 1 }
            default:
                record(failure: "\(player.hero.name)'s device posted a token of unknown kind '\(kind)'")
                return .badRequest
            }
            return .noContent
        } catch {
            record(failure: "\(player.hero.name)'s app could not report its \(kind): \(error.description)")
            return .badGateway
        }
    }

    private func record(failure: String) {
        logger.warning("token bridge", metadata: ["problem": "\(failure)"])
        ledger.withLock { $0.failures.append(failure) }
    }
}
