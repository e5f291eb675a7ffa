/// What a reporter has got to the server so far, read from its journal: for an app's status screen, a
/// test, or the demo's summary.
public struct ReportStatus: Sendable, Hashable {
    /// Activities whose newest update token the server stored (ended ones included, until dismissed).
    public var activityTokensStored: Int
    /// Attributes types whose newest push-to-start token the server stored.
    public var pushToStartTokensStored: Int
    /// Requests still owed to the server (``LivePushReporter/pendingCount``).
    public var pending: Int
    /// Newest tokens the server refused for good (a 4xx naming a field): not sent again.
    public var refused: Int

    public init(activityTokensStored: Int, pushToStartTokensStored: Int, pending: Int, refused: Int) {
        self.activityTokensStored = activityTokensStored
        self.pushToStartTokensStored = pushToStartTokensStored
        self.pending = pending
        self.refused = refused
    }
}

extension JournalState {
    var status: ReportStatus {
        ReportStatus(
            activityTokensStored: activities.values.count { $0.token != nil && $0.acknowledged?.token == $0.token },
            pushToStartTokensStored: pushToStart.values.count { $0.acknowledgedToken == $0.token },
            pending: pendingCount,
            refused: activities.values.count { $0.token != nil && $0.refusedToken == $0.token }
                + pushToStart.values.count { $0.refusedToken == $0.token })
    }
}

extension LivePushReporter {
    /// What the server holds of this app's tokens, and what is still owed or was refused.
    public var status: ReportStatus { state.status }
}
