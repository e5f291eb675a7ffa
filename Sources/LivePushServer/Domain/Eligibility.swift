import PushStore

/// Whether an activity may get a push: one place for both moments of a push's life.
enum Eligibility {
    /// Accepting a new push (a send request, the sweep's end): the activity must be active with a valid
    /// token. Returns the rule and a sentence, or nil when it may.
    static func refusalToAccept(_ activity: ActivityRecord) -> (rule: String, message: String)? {
        if activity.state != .active {
            return ("active", "activity '\(activity.activityID)' is \(activity.state.rawValue); only active activities take updates")
        }
        if case .invalid(let reason, _) = activity.tokenState {
            return (
                "validToken", "activity '\(activity.activityID)' has no valid push token (APNs said \(reason)); the app must register a new token"
            )
        }
        return nil
    }

    /// Sending a push accepted earlier: an ended activity still gets what was accepted before it ended
    /// (its end push among them), a dismissed one is no longer shown, and a refused token waits for the
    /// app to register a new one. Returns why not, or nil when it may.
    static func refusalToSend(_ activity: ActivityRecord) -> String? {
        let invalidTokenReason: String? = if case .invalid(let reason, _) = activity.tokenState { reason } else { nil }
        return refusalToSend(state: activity.state, invalidTokenReason: invalidTokenReason)
    }

    /// ``refusalToSend(_:)`` of an activity as a claim read it (its state, and APNs' reason when its token
    /// was marked invalid).
    static func refusalToSend(_ activity: ClaimedActivity) -> String? {
        refusalToSend(state: activity.state, invalidTokenReason: activity.invalidTokenReason)
    }

    private static func refusalToSend(state: ActivityState, invalidTokenReason: String?) -> String? {
        if state == .dismissed { return "activity was dismissed before the push was sent" }
        if let invalidTokenReason { return "token invalid (\(invalidTokenReason)); waiting for the app to register a new one" }
        return nil
    }
}
