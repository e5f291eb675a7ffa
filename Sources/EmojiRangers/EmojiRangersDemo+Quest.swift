import APNsSimulator
import Foundation
import LiveActivity
import LivePushAPIClient
import OpenAPIRuntime

/// One hero's quest run as a Live Activity resource, and what each request did to it.
package struct DemoQuest: Sendable, Hashable {
    package var hero: Hero
    /// Each request and its outcome: `PUT started`, `PUT queued` or `PUT updated`, `PUT unchanged`, `DELETE ended`.
    package var steps: [String] = []
    /// The activity ids the resource had.
    package var activityIDs: [String] = []
    /// The pushes the server sent for it (the start, a queued state once delivered, each update, the end).
    package var pushes = 0

    /// `quest of 🐼 Power Panda as a resource (PUT /v1/users/…/live-activities/quest): started, queued, updated, unchanged, ended`.
    package var line: String {
        "quest of \(hero.label) as a resource (PUT/DELETE /v1/users/player-\(hero.id)/live-activities/quest): "
            + steps.joined(separator: ", ")
    }
}

extension EmojiRangersDemo {
    /// Runs `seat`'s hero's quest as a resource: the backend PUTs the state it wants and never learns an
    /// activity id. The first PUT starts it by push-to-start, the second comes before the app has
    /// registered the new activity (queued, shown once it does; or updated when the app was quicker), then
    /// an update, the same PUT again (nothing sent), and DELETE. Each step is checked on the iPhone.
    func playQuest(_ seat: Seat, problems: inout [String]) async throws(DemoError) -> DemoQuest {
        var quest = DemoQuest(hero: seat.hero)
        let userID = "player-\(seat.hero.id)"
        let path = "/v1/users/\(userID)/live-activities/quest"
        let states = [
            AdventureContentState(currentHealthLevel: 1, eventDescription: "\(seat.hero.label) sets out on a quest"),
            AdventureContentState(currentHealthLevel: 0.9, eventDescription: "\(seat.hero.label) finds an old map"),
            AdventureContentState(currentHealthLevel: 0.7, eventDescription: "\(seat.hero.label) climbs the tower"),
        ]
        let backend = self.backend
        let attributes: JSONValue = ["name": .string("\(seat.hero.name)'s quest"), "emoji": .string(seat.hero.emoji)]
        func put(_ state: AdventureContentState) async throws(DemoError) -> String {
            let body = Components.Schemas.LiveActivityPut(
                attributesType: Self.attributesType, attributes: attributes, contentState: state.jsonValue,
                alert: .init(
                    value1: Components.Schemas.Alert(value1: .init(title: .PlainText("\(seat.hero.name)'s quest")), value2: nil, value3: nil)),
                relevanceScore: SideQuest.relevanceScore)
            let answer = try await APICall("PUT", path).run {
                try await backend.putLiveActivity(path: .init(userId: userID, key: "quest"), body: .json(body))
            }
            quest.steps.append("PUT \(answer.outcome.rawValue)")
            return answer.outcome.rawValue
        }
        func questActivity() async -> ActivitySnapshot? {
            try? await simulator.world.device(id: seat.deviceID).activities.first {
                $0.attributes["emoji"] == .string(seat.hero.emoji) && $0.attributes["livePushKey"] == "quest"
            }
        }
        if try await put(states[0]) != "started" { problems.append("the quest's first PUT did not start it") }
        _ = try await put(states[1])
        let running = await eventuallyTrue { await questActivity()?.contentState == states[1].jsonValue }
        if !running { problems.append("the quest's queued state never reached \(seat.hero.name)'s iPhone") }
        let linked = await eventuallyTrue {
            let resource = try? await APICall("GET", path).run { try await backend.getLiveActivity(path: .init(userId: userID, key: "quest")) }
            return resource?.state == .active
        }
        if !linked { problems.append("the app's registration of the quest was never linked to it") }
        if try await put(states[2]) != "updated" { problems.append("the quest's third PUT did not update it") }
        if try await put(states[2]) != "unchanged" { problems.append("the same PUT again was not unchanged") }
        guard let activity = await questActivity() else {
            problems.append("the quest's activity is not on \(seat.hero.name)'s iPhone")
            return quest
        }
        if await !shows(activity.activityID, states[2].jsonValue) { problems.append("the quest's update never reached the iPhone") }
        let final = AdventureContentState(currentHealthLevel: 0.7, eventDescription: "\(seat.hero.label) completed the quest")
        let ended = try await APICall("DELETE", path).run {
            try await backend.endLiveActivity(
                path: .init(userId: userID, key: "quest"), body: .json(.init(contentState: .init(value1: final.jsonValue), dismissalDate: nil)))
        }
        quest.steps.append("DELETE \(ended.outcome.rawValue)")
        if await !endsWith(activity.activityID, final.jsonValue) { problems.append("the quest did not end with its final state") }
        let resource = try await APICall("GET", path).run { try await backend.getLiveActivity(path: .init(userId: userID, key: "quest")) }
        quest.activityIDs = resource.activityIds
        // Each step that sent a push: the start, the queued state delivered on registration, each update, the end.
        quest.pushes = resource.history.filter { ["started", "delivered", "updated", "ended"].contains($0.outcome) }.count
        return quest
    }
}
