import Foundation
import LiveActivity

/// Each app's ContentState shape per attributes type, and the sends refused for not matching it.
package protocol ContentStateShapeStore: Sendable {
    /// The shape stored for an app's attributes type, nil when none is.
    func contentStateShape(bundleID: String, attributesType: String) async throws(PushStoreError) -> StoredContentStateShape?

    /// The shapes of the apps given (nil: of every app), ordered by bundle id and attributes type.
    func contentStateShapes(bundleIDs: [String]?) async throws(PushStoreError) -> [StoredContentStateShape]

    /// The shapes of the attributes types a group's activities have (active or not), in one statement.
    func contentStateShapes(inGroup groupID: String) async throws(PushStoreError) -> [StoredContentStateShape]

    /// Stores `shape` for its app and attributes type whatever was stored (a backend's `PUT`); returns it with
    /// its new revision.
    func putContentStateShape(_ shape: StoredContentStateShape) async throws(PushStoreError) -> StoredContentStateShape

    /// Stores `shape` only if the stored revision is still `revision` (nil: only if none is stored), for a
    /// merge read before; nil when another write came first (read again and merge again).
    func replaceContentStateShape(_ shape: StoredContentStateShape, ifRevision revision: Int?) async throws(PushStoreError)
        -> StoredContentStateShape?

    /// Records refused sends: counted by app, attributes type, field and rule (the newest refusal's target
    /// and message kept), and for the activities named, in each one's history (its newest 20 kept).
    func recordContentStateRefusals(_ refusals: [ContentStateRefusal]) async throws(PushStoreError)

    /// The refusal counts by field and rule, ordered by app, attributes type, field and rule.
    func contentStateRefusalCounts(bundleIDs: [String]?) async throws(PushStoreError) -> [ContentStateRefusalCount]

    /// An activity's refused sends, newest first.
    func contentStateRefusals(activityID: String) async throws(PushStoreError) -> [ContentStateRefusal]
}

/// Who stored a shape: a backend explicitly, or the app with its registration.
package enum ContentStateShapeSource: String, Sendable, Hashable, Codable {
    case backend, app
}

/// A shape as stored: for which app and attributes type, from whom, and its revision (1 for the first).
package struct StoredContentStateShape: Sendable, Hashable {
    package var bundleID: String
    package var attributesType: String
    package var shape: ContentStateShape
    package var source: ContentStateShapeSource
    package var revision: Int
    package var updatedAt: Date

    package init(
        bundleID: String, attributesType: String, shape: ContentStateShape, source: ContentStateShapeSource, revision: Int = 0, updatedAt: Date
    ) {
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.shape = shape
        self.source = source
        self.revision = revision
        self.updatedAt = updatedAt
    }
}

/// One field of one refused send.
package struct ContentStateRefusal: Sendable, Hashable {
    package var bundleID: String
    package var attributesType: String
    /// What the send was for: `activity:ID`, `group:ID`, `user:ID`, `channel:ID`.
    package var target: String
    /// The activity whose history shows it; nil for sends to many.
    package var activityID: String?
    /// The field's path in the content-state (`hero.level`).
    package var field: String
    /// `missing`, `null` or `type`.
    package var rule: String
    package var message: String
    package var at: Date

    package init(
        bundleID: String, attributesType: String, target: String, activityID: String?, field: String, rule: String, message: String, at: Date
    ) {
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.target = target
        self.activityID = activityID
        self.field = field
        self.rule = rule
        self.message = message
        self.at = at
    }
}

/// How often sends were refused for one field and rule of an app's attributes type, and the newest one.
package struct ContentStateRefusalCount: Sendable, Hashable {
    package var bundleID: String
    package var attributesType: String
    package var field: String
    package var rule: String
    package var refusals: Int
    package var lastTarget: String
    package var lastMessage: String
    package var lastAt: Date
}
