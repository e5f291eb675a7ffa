import Foundation

/// The app's events, applied to the journal's state. Each returns whether it changed anything (to write and send).
extension JournalState {
    mutating func record(token: PushToken, activityID: String, attributesType: String, groups: [String], liveActivityKey: String? = nil) -> Bool {
        var entry =
            activities[activityID]
            ?? ActivityEntry(activityID: activityID, attributesType: attributesType, groups: groups, changedAt: 0)
        // An ended activity keeps its last token: what is left to say is the end.
        guard entry.end == nil, entry.token != token else { return false }
        entry.token = token
        entry.attributesType = attributesType
        if !groups.isEmpty { entry.groups = groups }
        if let liveActivityKey { entry.liveActivityKey = liveActivityKey }
        entry.changedAt = nextSequence()
        activities[activityID] = entry
        return true
    }

    mutating func record(pushToStart token: PushToken, attributesType: String, source: PushToStartSource) -> Bool {
        if let known = pushToStart[attributesType], known.token == token { return false }
        pushToStart[attributesType] = PushToStartEntry(
            attributesType: attributesType, token: token, source: source,
            acknowledgedToken: pushToStart[attributesType]?.acknowledgedToken, changedAt: nextSequence())
        return true
    }

    mutating func record(end: ActivityEnd, activityID: String) -> Bool {
        guard var entry = activities[activityID] else {
            // The server never heard of it from this app: nothing to report.
            return false
        }
        if entry.end == end || entry.end?.isDismissed == true { return false }
        entry.end = end
        entry.changedAt = nextSequence()
        activities[activityID] = entry
        return true
    }

    /// Drops activities that ended before the server ever stored them: with no request in flight (a
    /// journal just read), the server cannot know them, so they need no end either.
    mutating func dropUnregisteredEnds() {
        activities = activities.filter { $0.value.end == nil || $0.value.acknowledged != nil }
    }

    /// A new `frequentPushesEnabled` makes every registered, running activity register again with it
    /// (the registration is where the server takes it).
    mutating func record(authorization new: ActivityAuthorization) -> Bool {
        guard authorization != new else { return false }
        let frequentChanged = authorization.frequentPushesEnabled != new.frequentPushesEnabled
        authorization = new
        if frequentChanged {
            let running = activities.values.filter { $0.end == nil && $0.acknowledged != nil }.sorted { $0.changedAt < $1.changedAt }
            for entry in running {
                let stamp = nextSequence()
                activities[entry.activityID]?.changedAt = stamp
            }
        }
        return true
    }
}
