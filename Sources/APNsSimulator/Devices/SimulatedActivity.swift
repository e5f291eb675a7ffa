import Foundation
import LiveActivity

/// One Live Activity on a simulated device. Its lifecycle is computed from dates against the clock, so no
/// timers are needed: `settle(at:rules:)` applies the system limits up to a moment.
struct SimulatedActivity: Sendable {
    let id: String
    let deviceID: String
    let bundleID: String
    let attributesType: String
    let attributes: JSONValue
    let schema: ContentStateSchema
    let startedAt: Date
    var contentState: JSONValue
    var pushToken: String?
    /// The broadcast channel it is subscribed to (nil: none, or the channel was deleted).
    var channelID: String? = nil
    var relevanceScore: Double
    var staleDate: Date?
    var lastTimestamp: Date?
    var endedAt: Date?
    var endCause: ActivityEndCause?
    var dismissalDate: Date?
    var alerts: [AlertRecord] = []
    /// Shared entries: a broadcast adds one reference per subscriber, not a copy of the push.
    var history = ActivityHistory()
    var budget = SlidingWindowCounter()
    /// The lifecycle last published on the event stream.
    var announced: ActivityLifecycle = .active

    /// The same fresh activity under another id (bulk starts share every value but the id).
    func copy(id: String) -> SimulatedActivity {
        SimulatedActivity(
            id: id, deviceID: deviceID, bundleID: bundleID, attributesType: attributesType, attributes: attributes,
            schema: schema, startedAt: startedAt, contentState: contentState, pushToken: pushToken,
            relevanceScore: relevanceScore, staleDate: staleDate, lastTimestamp: lastTimestamp
        )
    }

    func lifecycle(at now: Date) -> ActivityLifecycle {
        if let dismissalDate, dismissalDate <= now { return .dismissed }
        if let endedAt, endedAt <= now { return .ended }
        if let staleDate, staleDate <= now { return .stale }
        return .active
    }

    /// Applies the 8-hour active limit (the system ends the activity) up to `now`.
    mutating func settle(at now: Date, rules: DeviceRules) {
        let systemEnd = startedAt.addingTimeInterval(rules.maximumActiveDuration)
        if endedAt == nil, now >= systemEnd {
            end(at: systemEnd, cause: .system, requestedDismissal: nil, rules: rules)
        }
    }

    /// Ends the activity at `moment`. Dismissal: the default delay when none is asked, capped at the
    /// maximum delay, at once for a past date, and never after the 12-hour total limit.
    mutating func end(at moment: Date, cause: ActivityEndCause, requestedDismissal: Date?, rules: DeviceRules) {
        endedAt = moment
        endCause = cause
        let latest = moment.addingTimeInterval(rules.maximumDismissalDelay)
        var dismissal = requestedDismissal ?? moment.addingTimeInterval(rules.defaultDismissalDelay)
        if dismissal < moment { dismissal = moment }
        if dismissal > latest { dismissal = latest }
        let totalLimit = startedAt.addingTimeInterval(rules.maximumTotalDuration)
        if dismissal > totalLimit { dismissal = totalLimit }
        dismissalDate = dismissal
    }

    mutating func appendHistory(_ entry: HistoryEntry, limit: Int) {
        history.append(entry, limit: limit)
    }

    func snapshot(at now: Date, rules: DeviceRules) -> ActivitySnapshot {
        ActivitySnapshot(
            activityID: id, deviceID: deviceID, bundleID: bundleID, attributesType: attributesType,
            attributes: attributes, contentState: contentState, contentStateSchema: schema,
            pushToken: pushToken, channelID: channelID, state: lifecycle(at: now), relevanceScore: relevanceScore,
            startedAt: startedAt, staleDate: staleDate, lastTimestamp: lastTimestamp,
            activeUntil: endedAt == nil ? startedAt.addingTimeInterval(rules.maximumActiveDuration) : nil,
            endedAt: endedAt, endedBy: endCause, dismissalDate: dismissalDate, alerts: alerts,
            history: history.entries.map { $0.record(deviceID: deviceID, activityID: id) }
        )
    }
}

/// An activity as the control API shows it.
public struct ActivitySnapshot: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case activityID = "activityId"
        case deviceID = "deviceId"
        case bundleID = "bundleId"
        case attributesType, attributes, contentState, contentStateSchema, pushToken
        case channelID = "channelId"
        case state, relevanceScore, startedAt, staleDate, lastTimestamp, activeUntil, endedAt, endedBy, dismissalDate, alerts
        case history
    }

    public var activityID: String
    public var deviceID: String
    public var bundleID: String
    public var attributesType: String
    public var attributes: JSONValue
    public var contentState: JSONValue
    public var contentStateSchema: ContentStateSchema
    /// The current update token (nil when none was issued).
    public var pushToken: String?
    /// The broadcast channel it is subscribed to.
    public var channelID: String?
    public var state: ActivityLifecycle
    public var relevanceScore: Double
    public var startedAt: Date
    public var staleDate: Date?
    /// The timestamp of the last applied push.
    public var lastTimestamp: Date?
    /// When the system ends the activity (8 hours after its start) unless it ends sooner; nil once ended.
    public var activeUntil: Date?
    public var endedAt: Date?
    public var endedBy: ActivityEndCause?
    public var dismissalDate: Date?
    public var alerts: [AlertRecord]
    /// Every push received for this activity, oldest first.
    public var history: [PushRecord]
}
