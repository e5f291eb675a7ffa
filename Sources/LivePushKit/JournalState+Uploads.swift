/// The work the journal holds, and what an answer of the server does to it.
extension JournalState {
    /// The oldest change still to send, or nil when the server knows everything.
    var nextUpload: Upload? {
        var next: (at: UInt64, upload: Upload)?
        for entry in activities.values {
            if let upload = upload(for: entry), entry.changedAt < next?.at ?? .max { next = (entry.changedAt, upload) }
        }
        for entry in pushToStart.values {
            if let upload = upload(for: entry), entry.changedAt < next?.at ?? .max { next = (entry.changedAt, upload) }
        }
        return next?.upload
    }

    /// How many requests are owed.
    var pendingCount: Int {
        activities.values.count { upload(for: $0) != nil } + pushToStart.values.count { upload(for: $0) != nil }
    }

    private func upload(for entry: ActivityEntry) -> Upload? {
        if let end = entry.end {
            guard entry.acknowledged != nil, entry.acknowledgedEnd != end else { return nil }
            return .end(activityID: entry.activityID, end)
        }
        guard let token = entry.token, token != entry.refusedToken else { return nil }
        guard let registered = entry.acknowledged, registered.frequentPushesEnabled == authorization.frequentPushesEnabled else {
            return .register(
                activityID: entry.activityID, attributesType: entry.attributesType, groups: entry.groups, token: token,
                frequentPushesEnabled: authorization.frequentPushesEnabled, liveActivityKey: entry.liveActivityKey)
        }
        return registered.token == token ? nil : .rotate(activityID: entry.activityID, token: token)
    }

    private func upload(for entry: PushToStartEntry) -> Upload? {
        guard entry.token != entry.acknowledgedToken, entry.token != entry.refusedToken else { return nil }
        return .pushToStart(attributesType: entry.attributesType, token: entry.token, source: entry.source)
    }

    /// The server stored what `upload` sent. A newer token that arrived meanwhile stays owed.
    mutating func acknowledge(_ upload: Upload) {
        switch upload {
        case .register(let id, _, _, let token, let frequent, _):
            activities[id]?.acknowledged = .init(token: token, frequentPushesEnabled: frequent)
            activities[id]?.refusedToken = nil
        case .rotate(let id, let token):
            activities[id]?.acknowledged?.token = token
        case .end(let id, let end):
            settle(end, of: id)
        case .pushToStart(let type, let token, _):
            pushToStart[type]?.acknowledgedToken = token
        }
    }

    /// The server refused `upload` for good (a 4xx naming what is wrong): it is not sent again. A newer
    /// token for the same activity or attributes type is.
    mutating func refuse(_ upload: Upload) {
        switch upload {
        case .register(let id, _, _, let token, _, _), .rotate(let id, let token):
            activities[id]?.refusedToken = token
        case .end(let id, let end):
            settle(end, of: id)
        case .pushToStart(let type, let token, _):
            pushToStart[type]?.refusedToken = token
        }
    }

    /// An end the server answered for good, stored or refused: it is not sent again. A dismissal also
    /// takes the activity out of the journal.
    private mutating func settle(_ end: ActivityEnd, of id: String) {
        if end.isDismissed { activities[id] = nil } else { activities[id]?.acknowledgedEnd = end }
    }

    /// The server does not know the activity (404): a token is registered again from the start; an end
    /// has nothing left to end.
    mutating func forgetServerCopy(of upload: Upload) {
        switch upload {
        case .rotate(let id, _):
            activities[id]?.acknowledged = nil
        case .end(let id, _):
            activities[id] = nil
        case .register, .pushToStart:
            refuse(upload)
        }
    }
}
