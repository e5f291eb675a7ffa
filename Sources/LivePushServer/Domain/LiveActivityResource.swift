import Foundation
import LiveActivity
import PushStore

/// What a backend asks for with `PUT /v1/users/{userId}/live-activities/{key}`, free of any transport:
/// the activity's attributes and what its device should show now.
struct WantedLiveActivity: Sendable, Hashable {
    var attributesType: String
    var attributes: JSONValue
    var contentState: JSONValue
    /// The contract's `Alert` object as given: shown with this request's push.
    var alert: JSONValue?
    var staleDate: Date?
    var relevanceScore: Double?
    /// Renewal past 8 hours, when asked.
    var renewBefore: TimeInterval?

    /// What the device is to show, as stored and compared: two requests that agree on it (and on the
    /// attributes) are the same request.
    var shown: JSONValue {
        var fields: [String: JSONValue] = ["contentState": contentState]
        if let alert { fields["alert"] = alert }
        if let staleDate { fields["staleDate"] = .number(staleDate.timeIntervalSince1970) }
        if let relevanceScore { fields["relevanceScore"] = .number(relevanceScore) }
        return .object(fields)
    }
}

extension WantedLiveActivity {
    /// The request a stored resource last took.
    init(_ record: LiveActivityResourceRecord) {
        let shown = record.wanted.objectValue ?? [:]
        self.init(
            attributesType: record.attributesType, attributes: record.attributes, contentState: shown["contentState"] ?? .object([:]),
            alert: shown["alert"], staleDate: shown["staleDate"]?.numberValue.map { Date(timeIntervalSince1970: $0) },
            relevanceScore: shown["relevanceScore"]?.numberValue, renewBefore: record.renewBefore)
    }
}

/// The rules of a Live Activity kept as a resource: from what is stored, whether an activity runs for
/// it and what the backend wants now, the one step to take. No store, no transport: the service reads
/// and writes, these decide.
enum LiveActivityResourceRules {
    /// What a PUT does.
    enum Step: Sendable, Hashable {
        /// Start an activity by push-to-start (none runs, none is starting).
        case start
        /// Send the new state to the running activity.
        case update(activityID: String)
        /// Keep the new state until the app registers the activity whose start was sent (and, after a
        /// DELETE while it waited, keep that activity rather than end it).
        case queue
        /// The same as the last request: nothing to send.
        case unchanged
    }

    /// What a DELETE does.
    enum EndStep: Sendable, Hashable {
        /// Send an end to the running activity.
        case end(activityID: String)
        /// The start waits for the app: end the activity as soon as the app registers it.
        case endOnArrival
        /// No activity runs or is starting: mark it ended, nothing to send.
        case markEnded
        /// Already ended (or never started): nothing to do.
        case unchanged
    }

    /// The step for `wanted`, given the stored resource (nil: none yet) and its running activity (nil
    /// when none is active). 409 when the attributes of one that runs or starts would change: they are
    /// static for an activity's life.
    static func step(_ wanted: WantedLiveActivity, stored: LiveActivityResourceRecord?, running: ActivityRecord?) throws(DomainError) -> Step {
        guard let stored else { return .start }
        let live = stored.state == .starting || stored.state == .ending || (stored.state == .active && running != nil)
        if live, stored.attributesType != wanted.attributesType || stored.attributes != wanted.attributes {
            throw .conflict(
                "attributes",
                "static",
                "the activity under key '\(stored.key)' runs or is starting with attributes type '\(stored.attributesType)' and other attributes; attributes are fixed for an activity's life: DELETE it, then PUT the new one"
            )
        }
        switch stored.state {
        case .starting:
            return stored.wanted == wanted.shown ? .unchanged : .queue
        case .ending:
            // A PUT after a DELETE while the start still waits: the activity on its way is kept after all,
            // and shows this state once the app registers it (no second start).
            return .queue
        case .active:
            guard let running else { return .start }
            return stored.wanted == wanted.shown ? .unchanged : .update(activityID: running.activityID)
        case .ended, .refused:
            return .start
        }
    }

    /// The step for a DELETE of the stored resource.
    static func endStep(stored: LiveActivityResourceRecord, running: ActivityRecord?) -> EndStep {
        switch stored.state {
        case .active: return running.map { .end(activityID: $0.activityID) } ?? .markEnded
        case .starting: return .endOnArrival
        case .ending, .ended, .refused: return .unchanged
        }
    }

    /// The resource whose start a registration answers: the one named by the key the app reported, else
    /// the oldest of the user's resources of that attributes type whose start waits for the app and was
    /// sent no later than the activity began (an older activity registering again is never taken).
    static func resourceAnswered(by activity: ActivityRecord, waiting: [LiveActivityResourceRecord]) -> LiveActivityResourceRecord? {
        waiting.first { resource in
            (resource.state == .starting || resource.state == .ending) && resource.userID == activity.userID
                && resource.attributesType == activity.attributesType && !resource.activityIDs.contains(activity.activityID)
                && (resource.startedAt ?? .distantFuture) <= activity.startedAt
        }
    }
}
