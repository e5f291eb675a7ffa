import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore

/// The one place that decides whether a send's content-state reaches the device decodable: the shapes of
/// the attributes types the send reaches (``ContentStateShapeStore``) each check it as the device's default
/// `JSONDecoder` would (``ContentStateShape/check(_:)``), and a content-state any of them refuses refuses the
/// whole send with 422, before anything is stored. APNs would answer 200 and the device drop it silently.
/// No shape stored: nothing is checked. The refusal is recorded (counts by field and rule, the activity's
/// history); failing to record it does not change the answer.
struct ContentStateGate: Sendable {
    let store: any ContentStateShapeStore
    let clock: any WallClock
    let logger: Logger

    /// A refused send: the error to answer and what to record.
    struct Refusal: Sendable {
        var error: DomainError
        var records: [ContentStateRefusal]
    }

    /// Checks `contentState` against each shape; throws the first refusal after recording it. A nil content-state
    /// (an end without a final state) is not checked: the device keeps what it shows.
    func check(_ contentState: JSONValue?, against shapes: [StoredContentStateShape], target: String, activityID: String?) async throws(DomainError) {
        guard let refusal = refusal(contentState, against: shapes, target: target, activityID: activityID) else { return }
        await record(refusal.records)
        throw refusal.error
    }

    /// The refusal of `contentState` by the first shape that refuses it (in the order given), nil when every
    /// shape accepts it.
    func refusal(_ contentState: JSONValue?, against shapes: [StoredContentStateShape], target: String, activityID: String?) -> Refusal? {
        guard let contentState else { return nil }
        for stored in shapes {
            let violations = stored.shape.check(contentState)
            guard let first = violations.first else { continue }
            let now = clock.now()
            let message =
                "the content-state would not decode into \(stored.attributesType).ContentState of \(stored.bundleID): "
                + violations.prefix(5).map(\.description).joined(separator: "; ")
                + (violations.count > 5 ? "; and \(violations.count - 5) more" : "")
                + ". The device's JSONDecoder would drop it without a word, so nothing was stored or sent; the shape is at "
                + "GET /v1/apps/\(stored.bundleID)/attributes-types/\(stored.attributesType)/content-state-shape"
            let records = violations.map { violation in
                ContentStateRefusal(
                    bundleID: stored.bundleID, attributesType: stored.attributesType, target: target, activityID: activityID,
                    field: violation.path.isEmpty ? "content-state" : violation.path, rule: violation.rule.rawValue,
                    message: violation.description, at: now)
            }
            let field = first.path.isEmpty ? "contentState" : "contentState." + first.path
            return Refusal(error: DomainError(kind: .undecodable, subject: field, rule: first.rule.rawValue, message: message), records: records)
        }
        return nil
    }

    /// Records refusals; a store that cannot take them now is logged, the send stays refused.
    func record(_ records: [ContentStateRefusal]) async {
        guard let first = records.first else { return }
        logger.info(
            "content-state refused",
            metadata: ["target": "\(first.target)", "field": "\(first.field)", "rule": "\(first.rule)", "attributesType": "\(first.attributesType)"])
        do {
            try await store.recordContentStateRefusals(records)
        } catch {
            logger.warning("recording a content-state refusal failed", metadata: ["error": "\(error)"])
        }
    }
}
