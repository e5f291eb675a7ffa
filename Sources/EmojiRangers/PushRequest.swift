import Foundation
import LiveActivity

/// An adventure event as the backend sends it to the LivePush API: the route and the JSON body.
struct PushRequest: Sendable {
    var path: String
    var body: JSONValue
    /// The stale date given, if any.
    var staleDate: Date?

    /// The request for `event`: the party's group route, or the hero's activity route for a per-hero event.
    /// Dates are whole Unix seconds (what `aps` carries), scaled to the demo's pace from `now`.
    static func make(
        for event: AdventureEvent, group: String, activityId: (Hero) -> String?, options: DemoOptions, now: Date
    ) -> PushRequest? {
        let verb = event.isEnd ? "end" : "update"
        let path: String
        switch event.audience {
        case .party:
            path = "/v1/groups/\(group)/\(verb)"
        case .hero(let hero):
            guard let id = activityId(hero) else { return nil }
            path = "/v1/activities/\(id)/\(verb)"
        }
        var body: [String: JSONValue] = [
            "contentState": event.contentState.jsonValue,
            "priority": .number(Double(event.priority.rawValue)),
            "relevanceScore": .number(event.relevanceScore),
        ]
        if let alert = event.alert { body["alert"] = apiAlert(alert) }
        var staleDate: Date?
        if let staleAfter = event.staleAfter {
            let date = wholeSecond(now.addingTimeInterval(options.scaled(staleAfter, minimum: 1)))
            body["staleDate"] = .number(date.timeIntervalSince1970)
            staleDate = date
        }
        if let dismissAfter = event.dismissAfter {
            body["dismissalDate"] = .number(wholeSecond(now.addingTimeInterval(options.scaled(dismissAfter, minimum: 10))).timeIntervalSince1970)
        }
        return PushRequest(path: path, body: .object(body), staleDate: staleDate)
    }

    /// The API's alert: plain strings, or `{"locKey": …, "locArgs": […]}` for localized text.
    static func apiAlert(_ alert: LiveActivityAlert) -> JSONValue {
        var object: [String: JSONValue] = [:]
        func text(_ value: AlertText) -> JSONValue {
            switch value {
            case .plain(let text): return .string(text)
            case .localized(let key, let arguments):
                return .object(["locKey": .string(key), "locArgs": .array(arguments.map(JSONValue.string))])
            }
        }
        if let title = alert.title { object["title"] = text(title) }
        if let body = alert.body { object["body"] = text(body) }
        if let sound = alert.sound { object["sound"] = .string(sound.name) }
        return .object(object)
    }

    /// The next whole second at or after `date`.
    static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up))
    }
}
