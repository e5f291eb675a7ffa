import Testing

@testable import LivePushKit

/// What ``ReportStatus`` reads from the journal: the tokens the server holds, the work owed, the refusals.
@Suite struct ReportStatusTests: SampleTokens {
    @Test func countsWhatTheServerStoredOwedAndRefused() {
        var state = JournalState(deviceID: "d")
        _ = state.record(token: a, activityID: "stored", attributesType: "T", groups: [])
        _ = state.record(token: b, activityID: "refused", attributesType: "T", groups: [])
        _ = state.record(pushToStart: c, attributesType: "T", source: .stream)
        #expect(state.status == ReportStatus(activityTokensStored: 0, pushToStartTokensStored: 0, pending: 3, refused: 0))

        state.acknowledge(.register(activityID: "stored", attributesType: "T", groups: [], token: a, frequentPushesEnabled: false))
        state.refuse(.register(activityID: "refused", attributesType: "T", groups: [], token: b, frequentPushesEnabled: false))
        state.acknowledge(.pushToStart(attributesType: "T", token: c, source: .stream))
        #expect(state.status == ReportStatus(activityTokensStored: 1, pushToStartTokensStored: 1, pending: 0, refused: 1))

        // A rotation not yet sent: the server holds an older token, so this activity's newest is not stored.
        _ = state.record(token: c, activityID: "stored", attributesType: "T", groups: [])
        #expect(state.status == ReportStatus(activityTokensStored: 0, pushToStartTokensStored: 1, pending: 1, refused: 1))
        // An ended activity keeps its stored token until it is dismissed.
        state.acknowledge(.rotate(activityID: "stored", token: c))
        _ = state.record(end: .ended(dismissalDate: nil), activityID: "stored")
        state.acknowledge(.end(activityID: "stored", .ended(dismissalDate: nil)))
        #expect(state.status.activityTokensStored == 1)
        _ = state.record(end: .dismissed, activityID: "stored")
        state.acknowledge(.end(activityID: "stored", .dismissed))
        #expect(state.status.activityTokensStored == 0)
    }
}
