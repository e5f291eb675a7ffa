/// One push in an activity's history: the shared request and what the activity did with it. Immutable,
/// so that the subscribers of a broadcast that did the same with it hold one instance between them: 8
/// bytes each in their histories. The device and activity are those of the activity that holds it.
final class HistoryEntry: Sendable {
    let request: PushRequestRecord
    let outcome: DeviceOutcome

    init(request: PushRequestRecord, outcome: DeviceOutcome) {
        self.request = request
        self.outcome = outcome
    }

    /// The entry of `record` (its device and activity are the holder's).
    convenience init(_ record: PushRecord) {
        self.init(request: record.request, outcome: record.outcome)
    }

    /// As the control API shows it, in the history of `activityID` on `deviceID`.
    func record(deviceID: String, activityID: String) -> PushRecord {
        PushRecord(request: request, outcome: outcome, deviceID: deviceID, activityID: activityID)
    }
}
