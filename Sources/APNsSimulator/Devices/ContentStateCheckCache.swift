import LiveActivity

/// What the subscribers of one broadcast share. The content-state decoding verdict for the last schema
/// checked: one broadcast reaches many activities that mostly share a schema (the app's `ContentState`),
/// so the check runs once per distinct schema in a row instead of once per activity; the verdict is the
/// same because it depends only on the two. And one history entry per outcome, which every subscriber
/// with that outcome keeps.
struct ContentStateCheckCache {
    private var schema: ContentStateSchema?
    private var contentState: JSONValue?
    private var verdict: String?
    private var entries: [DeviceOutcome: HistoryEntry] = [:]

    /// The history entry of `request` with `outcome`, one instance per outcome.
    mutating func historyEntry(request: PushRequestRecord, outcome: DeviceOutcome) -> HistoryEntry {
        if let entry = entries[outcome], entry.request === request { return entry }
        let entry = HistoryEntry(request: request, outcome: outcome)
        entries[outcome] = entry
        return entry
    }

    /// Why `contentState` does not decode with `schema`, or nil when it does.
    mutating func failure(of contentState: JSONValue, against schema: ContentStateSchema) -> String? {
        if let cached = self.schema, cached == schema, self.contentState == contentState { return verdict }
        let mismatches = schema.check(contentState)
        let failure = mismatches.isEmpty ? nil : mismatches.map(\.description).joined(separator: "; ")
        self.schema = schema
        self.contentState = contentState
        verdict = failure
        return failure
    }
}
