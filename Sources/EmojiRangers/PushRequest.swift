import Foundation
import LiveActivity
import LivePushAPIClient
import OpenAPIRuntime

/// An adventure event as the backend sends it to the LivePush API: the route and the body.
struct PushRequest: Sendable {
    /// Who the event goes to.
    enum Target: Sendable, Hashable {
        /// The party's group (answered with a group send id).
        case group(String)
        /// One hero's activity.
        case activity(String)
    }

    /// The contract's body: an update, or the end with its dismissal date.
    enum Body: Sendable, Hashable {
        case update(Components.Schemas.Update)
        case end(Components.Schemas.End)
    }

    var target: Target
    var body: Body
    /// The stale date given, if any.
    var staleDate: Date?

    /// `update` or `end`, as the routes name them.
    var verb: String {
        if case .end = body { return "end" }
        return "update"
    }

    /// The route: `/v1/groups/{groupId}/update|end` or `/v1/activities/{activityId}/update|end`.
    var path: String {
        switch target {
        case .group(let group): return "/v1/groups/\(group)/\(verb)"
        case .activity(let id): return "/v1/activities/\(id)/\(verb)"
        }
    }

    /// The request for `event`: the party's group route, or the hero's activity route for a per-hero event;
    /// nil when no activity plays the hero. Dates are whole Unix seconds (what `aps` carries), scaled to the
    /// demo's pace from `now`.
    static func make(
        for event: AdventureEvent, group: String, activityID: (Hero) -> String?, options: DemoOptions, now: Date
    ) -> PushRequest? {
        let target: Target
        switch event.audience {
        case .party:
            target = .group(group)
        case .hero(let hero):
            guard let id = activityID(hero) else { return nil }
            target = .activity(id)
        }
        // The content state is an object of a number and a string: the contract's ContentState.
        let contentState = event.contentState.jsonValue
        let priority = Components.Schemas.Priority(rawValue: Int(event.priority.rawValue))
        let alert = event.alert.map(Components.Schemas.Alert.init)
        var staleDate: Date?
        if let staleAfter = event.staleAfter {
            staleDate = wholeSecond(now.addingTimeInterval(options.scaled(staleAfter, minimum: 1)))
        }
        let body: Body
        if event.isEnd {
            body = .end(
                Components.Schemas.End(
                    contentState: .init(value1: contentState), alert: alert.map { .init(value1: $0) },
                    priority: priority.map { .init(value1: $0) }, staleDate: staleDate.map { .init(value1: .case1($0.timeIntervalSince1970)) },
                    relevanceScore: event.relevanceScore,
                    dismissalDate: event.dismissAfter.map { dismissAfter in
                        let date = wholeSecond(now.addingTimeInterval(options.scaled(dismissAfter, minimum: 10)))
                        return .init(value1: .case1(date.timeIntervalSince1970))
                    }
                ))
        } else {
            body = .update(
                Components.Schemas.Update(
                    contentState: contentState, alert: alert.map { .init(value1: $0) }, priority: priority.map { .init(value1: $0) },
                    staleDate: staleDate.map { .init(value1: .case1($0.timeIntervalSince1970)) }, relevanceScore: event.relevanceScore
                ))
        }
        return PushRequest(target: target, body: body, staleDate: staleDate)
    }

    /// The next whole second at or after `date`.
    static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up))
    }

    // MARK: - Sending

    /// Sends the request to its group (`target` is `.group`): the group send, accepted.
    func send(toGroup group: String, with backend: Client) async throws(DemoError) -> Components.Schemas.GroupSend {
        let call = APICall("POST", "/v1/groups/\(group)/\(verb)")
        switch body {
        case .update(let update): return try await call.run { try await backend.updateGroup(path: .init(groupId: group), body: .json(update)) }
        case .end(let end): return try await call.run { try await backend.endGroup(path: .init(groupId: group), body: .json(end)) }
        }
    }

    /// Sends the request to one activity: the pushes accepted.
    func send(toActivity id: String, with backend: Client) async throws(DemoError) -> Components.Schemas.Accepted {
        let call = APICall("POST", "/v1/activities/\(id)/\(verb)")
        switch body {
        case .update(let update): return try await call.run { try await backend.updateActivity(path: .init(activityId: id), body: .json(update)) }
        case .end(let end): return try await call.run { try await backend.endActivity(path: .init(activityId: id), body: .json(end)) }
        }
    }

    /// Broadcasts the request on a channel (`POST /v1/channels/{id}/update|end`): the broadcast accepted.
    func broadcast(to channelID: String, with backend: Client) async throws(DemoError) -> Components.Schemas.Accepted {
        let call = APICall("POST", "/v1/channels/\(channelID)/\(verb)")
        switch body {
        case .update(let update):
            return try await call.run { try await backend.updateChannel(path: .init(channelId: channelID), body: .json(update)) }
        case .end(let end): return try await call.run { try await backend.endChannel(path: .init(channelId: channelID), body: .json(end)) }
        }
    }
}

extension Components.Schemas.Alert {
    /// The event's alert as the contract's alert: title, body and sound, each when given.
    init(_ alert: LiveActivityAlert) {
        self.init(
            value1: alert.title.map { .init(title: .init($0)) }, value2: alert.body.map { .init(body: .init($0)) },
            value3: alert.sound.map { .init(sound: $0.name) })
    }
}

extension Components.Schemas.AlertText {
    /// A plain text, or `{"locKey": …, "locArgs": […]}` for a localized one.
    init(_ text: LiveActivity.AlertText) {
        switch text {
        case .plain(let text): self = .PlainText(text)
        case .localized(let key, let arguments): self = .LocalizedText(.init(locKey: key, locArgs: arguments))
        }
    }
}
