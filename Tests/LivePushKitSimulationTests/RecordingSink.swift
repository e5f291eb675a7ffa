import LivePushKit

/// A sink that keeps every call the adapter makes, in order.
actor RecordingSink: LiveActivityEventSink {
    enum Call: Sendable, Hashable {
        case activityToken(token: String, activityID: String, attributesType: String, groups: [String])
        case pushToStart(token: String, attributesType: String, source: PushToStartSource)
        case ended(activityID: String, ActivityEnd)
        case authorization(ActivityAuthorization)
    }

    private(set) var calls: [Call] = []

    func activityToken(_ token: PushToken, activityID: String, attributesType: String, groups: [String]) {
        calls.append(.activityToken(token: token.hex, activityID: activityID, attributesType: attributesType, groups: groups))
    }

    func pushToStartToken(_ token: PushToken, attributesType: String, source: PushToStartSource) {
        calls.append(.pushToStart(token: token.hex, attributesType: attributesType, source: source))
    }

    func activityEnded(activityID: String, _ end: ActivityEnd) {
        calls.append(.ended(activityID: activityID, end))
    }

    func authorization(_ authorization: ActivityAuthorization) {
        calls.append(.authorization(authorization))
    }

    func contains(_ call: Call) -> Bool { calls.contains(call) }
}
