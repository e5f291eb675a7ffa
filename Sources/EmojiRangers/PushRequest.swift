import Foundation
import LiveActivity
import LivePushServer

/// An adventure event as the backend sends it to the LivePush API: the route and the body.
struct PushRequest: Sendable {
    var path: String
    var body: SendBody
    /// The stale date given, if any.
    var staleDate: Date?

    /// A send to the party's group (answered with a group send id), not to one activity.
    var isGroupSend: Bool { path.hasPrefix("/v1/groups/") }

    /// The request for `event`: the party's group route, or the hero's activity route for a per-hero event.
    /// Dates are whole Unix seconds (what `aps` carries), scaled to the demo's pace from `now`.
    static func make(
        for event: AdventureEvent, group: String, activityID: (Hero) -> String?, options: DemoOptions, now: Date
    ) -> PushRequest? {
        let verb = event.isEnd ? "end" : "update"
        let path: String
        switch event.audience {
        case .party:
            path = "/v1/groups/\(group)/\(verb)"
        case .hero(let hero):
            guard let id = activityID(hero) else { return nil }
            path = "/v1/activities/\(id)/\(verb)"
        }
        var body = SendBody(
            contentState: event.contentState.jsonValue, priority: Int(event.priority.rawValue),
            alert: event.alert.map(SendBody.Alert.init), relevanceScore: event.relevanceScore
        )
        var staleDate: Date?
        if let staleAfter = event.staleAfter {
            let date = wholeSecond(now.addingTimeInterval(options.scaled(staleAfter, minimum: 1)))
            body.staleDate = APIDate(date)
            staleDate = date
        }
        if let dismissAfter = event.dismissAfter {
            body.dismissalDate = APIDate(wholeSecond(now.addingTimeInterval(options.scaled(dismissAfter, minimum: 10))))
        }
        return PushRequest(path: path, body: body, staleDate: staleDate)
    }

    /// The next whole second at or after `date`.
    static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up))
    }
}
