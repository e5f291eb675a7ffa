import APNsSimulator
import Foundation
import LiveActivity
import LivePushAPIClient

extension EmojiRangersDemo {
    /// The spectators: one simulated iPhone each, whose activity an audience start began, subscribed to the
    /// party's broadcast channel.
    struct Stands: Sendable {
        /// Our channel id (the server's), for `/v1/channels/{id}/update|end`.
        var channelID: String
        var apnsChannelID: String
        var count: Int
        /// The audience start that began the spectators' activities.
        var start: DemoAudienceStart
    }

    /// Creates the party's channel through the server, adds `options.spectators` iPhones whose apps store
    /// their push-to-start tokens, and starts every spectator's activity, joined to the channel, by one
    /// audience start; nil without spectators.
    func seatSpectators(adventure: Adventure, progress: (DemoProgress) -> Void) async throws(DemoError) -> Stands? {
        guard options.spectators > 0 else { return nil }
        let creation = Components.Schemas.ChannelCreation(
            name: .init(value1: "emoji-rangers-\(adventure.seed)-\(UUID().uuidString.prefix(8))"), bundleId: Self.bundleID, storagePolicy: ._1)
        let channel = try await createChannel(creation)
        let spectators = try await seatSpectatorApps(count: options.spectators)
        let start = try await startSpectators(spectators, adventure: adventure, channelID: channel.id, apnsChannelID: channel.apnsChannelId)
        progress(.spectatorsJoined(start, channelID: channel.id))
        return Stands(channelID: channel.id, apnsChannelID: channel.apnsChannelId, count: options.spectators, start: start)
    }

    /// `POST /v1/channels`, as a backend does it: the server answers 502 or 503 when APNs could not be
    /// reached (nothing was created, "retry later"), so those are tried again after 0.5, 1 and 2 s.
    private func createChannel(_ creation: Components.Schemas.ChannelCreation) async throws(DemoError) -> Components.Schemas.Channel {
        var delay = 0.5
        var attempt = 1
        while true {
            do {
                return try await APICall("POST", "/v1/channels").run { try await backend.createChannel(body: .json(creation)) }
            } catch {
                guard attempt < 4, case .api(_, _, let status, _) = error, status == 502 || status == 503 else { throw error }
            }
            try? await Task.sleep(for: .seconds(delay))
            attempt += 1
            delay *= 2
        }
    }

    /// Sends the event to the spectators as one broadcast (`POST /v1/channels/{id}/update|end`), waits for
    /// the server to record APNs' answer, then counts the spectators that show the event's state.
    func broadcast(_ event: AdventureEvent, of adventure: Adventure, to stands: Stands, report: inout DemoEventReport) async throws(DemoError) {
        guard let request = PushRequest.make(for: event, group: Self.partyGroup, activityID: { _ in "spectators" }, options: options, now: Date())
        else { return }
        let answer = try await request.broadcast(to: stands.channelID, with: backend)
        let pushIDs = Set(answer.pushIds.map { $0.lowercased() })
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !Task.isCancelled {
            let detail = try await APICall("GET", "/v1/channels/\(stands.channelID)").run {
                try await backend.getChannel(path: .init(channelId: stands.channelID))
            }
            if detail.deliveries.contains(where: { pushIDs.contains($0.pushId.lowercased()) }) { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        report.spectatorsFollowing = stands.count
        report.spectatorsReached = await spectatorsShowing(event.contentState.jsonValue, ended: event.isEnd, stands: stands)
    }

    /// How many subscribers show `state` (and have ended, for the last event); waits a moment for the
    /// simulator to apply the broadcast to all of them.
    private func spectatorsShowing(_ state: JSONValue, ended: Bool, stands: Stands) async -> Int {
        guard let ids = try? await simulator.world.channel(id: stands.apnsChannelID, subscriberLimit: stands.count).subscribers else { return 0 }
        var reached = 0
        let deadline = Date().addingTimeInterval(5)
        for id in ids {
            while true {
                if let snapshot = try? await simulator.world.activity(id: id), snapshot.contentState == state, !ended || snapshot.state != .active {
                    reached += 1
                    break
                }
                if Date() > deadline { break }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        return reached
    }
}
