import APNsSimulator
import Foundation
import LiveActivity
import LivePushAPIClient
import OpenAPIRuntime

extension EmojiRangersDemo {
    /// A spectator: a signed-in user of the app with a simulated iPhone of their own.
    struct Spectator: Sendable {
        var userID: String
        var deviceID: String
        var pushToStartToken: String
    }

    /// Requests in flight while the spectators' apps store their tokens.
    static let spectatorRegistrationConcurrency = 8

    /// Adds one simulated iPhone per spectator; each one's app stores its push-to-start token for the
    /// signed-in spectator (`PUT /v1/push-to-start-tokens`, with the user token the backend minted for
    /// them, `POST /v1/users/{userId}/app-tokens`), as an app does at sign-in.
    func seatSpectatorApps(count: Int) async throws(DemoError) -> [Spectator] {
        var spectators: [Spectator] = []
        spectators.reserveCapacity(count)
        let width = String(count).count
        for index in 1...count {
            let number = String(index).leftPadded(to: width).replacingOccurrences(of: " ", with: "0")
            do {
                let device = try await simulator.world.addDevice(
                    DeviceRegistration(name: "Spectator \(number)'s iPhone", bundleID: Self.bundleID, environment: "sandbox"))
                spectators.append(Spectator(userID: "spectator-\(number)", deviceID: device.deviceID, pushToStartToken: device.pushToStartToken))
            } catch {
                throw .device(error.description)
            }
        }
        let failure: DemoError? = await withTaskGroup(of: DemoError?.self) { group in
            var next = spectators.startIndex
            func add() {
                guard next < spectators.endIndex else { return }
                let spectator = spectators[next]
                next += 1
                group.addTask {
                    do throws(DemoError) {
                        try await self.storePushToStartToken(of: spectator)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            for _ in 0..<Self.spectatorRegistrationConcurrency { add() }
            for await failure in group {
                if let failure {
                    group.cancelAll()
                    return failure
                }
                add()
            }
            return nil
        }
        if let failure { throw failure }
        return spectators
    }

    /// The spectator app's sign-in: the backend mints the spectator's user token, with which the app stores
    /// its push-to-start token for the adventure's attributes type.
    private func storePushToStartToken(of spectator: Spectator) async throws(DemoError) {
        let backend = self.backend
        let userID = spectator.userID
        let token = try await APICall("POST", "/v1/users/\(userID)/app-tokens").run {
            try await backend.mintAppToken(path: .init(userId: userID), body: .json(.init(ttlSeconds: 3600)))
        }.token
        let app = try Client.livePush(baseURL: serverURL, key: token, session: session)
        let body = Components.Schemas.PushToStartToken(
            deviceId: spectator.deviceID, bundleId: Self.bundleID, attributesType: Self.attributesType, environment: .sandbox,
            token: spectator.pushToStartToken)
        _ = try await APICall("PUT", "/v1/push-to-start-tokens").run { try await app.storePushToStartToken(body: .json(body)) }
    }

    /// Starts the adventure's activity for every spectator by one audience start (`POST /v1/starts`) that
    /// joins the started activities to the party's channel (`inputPushChannel`), then waits until every
    /// spectator's iPhone shows it subscribed to the channel (the simulator's `channelSubscribed` events),
    /// and for the send's final counts (`GET /v1/sends/{id}`).
    func startSpectators(
        _ spectators: [Spectator], adventure: Adventure, channelID: String, apnsChannelID: String
    ) async throws(DemoError) -> DemoAudienceStart {
        let attributes: JSONValue = ["name": "Spectator", "emoji": "🏟️"]
        let body = Components.Schemas.AudienceStart(
            userIds: spectators.map(\.userID), contentState: adventure.initialState.jsonValue,
            alert: Components.Schemas.Alert(value1: .init(title: .PlainText("The adventure begins")), value2: nil, value3: nil),
            relevanceScore: AdventureEngine.routineRelevance, attributesType: Self.attributesType, attributes: attributes,
            inputPushChannel: channelID)
        // Subscribed before the request, so that no subscription is missed.
        let events = simulator.world.events.subscribe()
        let backend = self.backend
        let answer = try await APICall("POST", "/v1/starts").run { try await backend.startForAudience(body: .json(body)) }
        await Self.subscribers(of: apnsChannelID, reach: spectators.count, in: events)
        var start = DemoAudienceStart(spectators: spectators.count, sendID: answer.sendId)
        for spectator in spectators {
            let activities = (try? await simulator.world.device(id: spectator.deviceID).activities) ?? []
            if activities.contains(where: { $0.channelID == apnsChannelID && $0.state == .active }) { start.joined += 1 }
        }
        let progress = try await finished(answer)
        start.finished = progress.state == .finished
        start.targeted = progress.counts.targeted
        start.sent = progress.counts.sent
        start.skipped = progress.counts.skipped
        start.failed = progress.counts.failed
        return start
    }

    /// Returns once a `channelSubscribed` event says `channelID` has `count` subscribers (each event carries
    /// the channel's count, so one that the bounded stream dropped is made up by any later one), or after
    /// 60 s (a hang guard: the caller then counts what the iPhones show).
    private static func subscribers(of channelID: String, reach count: Int, in events: AsyncStream<SimulatorEvent>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events where event.kind == .channelSubscribed && event.data["channelId"]?.stringValue == channelID {
                    if let subscribers = event.data["subscriberCount"]?.numberValue, Int(subscribers) >= count { return }
                }
            }
            group.addTask { try? await Task.sleep(for: .seconds(60)) }
            await group.next()
            group.cancelAll()
        }
    }
}
