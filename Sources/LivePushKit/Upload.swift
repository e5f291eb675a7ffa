/// One request the reporter owes the server, derived from the journal: the oldest change first.
enum Upload: Sendable, Equatable {
    /// `POST /v1/activities`: first registration, or again with a new `frequentPushesEnabled`.
    /// `liveActivityKey`: the key of the server's Live Activity resource whose start began it.
    case register(
        activityID: String, attributesType: String, groups: [String], token: PushToken, frequentPushesEnabled: Bool, liveActivityKey: String? = nil)
    /// `PUT /v1/activities/{id}/push-token`.
    case rotate(activityID: String, token: PushToken)
    /// `POST /v1/activities/{id}/ended` or `…/dismissed`.
    case end(activityID: String, ActivityEnd)
    /// `PUT /v1/push-to-start-tokens`.
    case pushToStart(attributesType: String, token: PushToken, source: PushToStartSource)

    /// The route, for logs and errors.
    var route: String {
        switch self {
        case .register: "POST /v1/activities"
        case .rotate: "PUT /v1/activities/{activityId}/push-token"
        case .end(_, .ended): "POST /v1/activities/{activityId}/ended"
        case .end(_, .dismissed): "POST /v1/activities/{activityId}/dismissed"
        case .pushToStart: "PUT /v1/push-to-start-tokens"
        }
    }
}
