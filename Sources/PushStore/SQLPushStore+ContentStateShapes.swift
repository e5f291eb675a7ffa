import Foundation
import LiveActivity

/// The ``ContentStateShapeStore`` operations: `content_state_shapes`, `content_state_refusal_counts` and
/// `activity_refusals`.
extension SQLPushStore {
    /// How many refusals an activity's history keeps.
    static let refusalsKeptPerActivity = 20

    private static let shapeColumns = "bundle_id, attributes_type, shape_json, source, revision, updated_at"

    package func contentStateShape(bundleID: String, attributesType: String) async throws(PushStoreError) -> StoredContentStateShape? {
        try await run("contentStateShape", readOnly: true) { session throws(PushStoreError) in
            try await session.first(
                "SELECT \(Self.shapeColumns) FROM content_state_shapes WHERE bundle_id = ? AND attributes_type = ?",
                [.text(bundleID), .text(attributesType)]
            ).map(Self.shape)
        }
    }

    package func contentStateShapes(bundleIDs: [String]?) async throws(PushStoreError) -> [StoredContentStateShape] {
        try await run("contentStateShapes", readOnly: true) { session throws(PushStoreError) in
            let order = " ORDER BY bundle_id, attributes_type"
            guard let bundleIDs else {
                return try await session.query("SELECT \(Self.shapeColumns) FROM content_state_shapes" + order).map(Self.shape)
            }
            let rows = try await Self.queryIn(
                session, "SELECT \(Self.shapeColumns) FROM content_state_shapes WHERE bundle_id IN ({IN})" + order,
                values: Array(Set(bundleIDs)).sorted().map(SQLValue.text))
            return try rows.map(Self.shape)
        }
    }

    package func contentStateShapes(inGroup groupID: String) async throws(PushStoreError) -> [StoredContentStateShape] {
        try await run("contentStateShapesInGroup", readOnly: true) { session throws(PushStoreError) in
            // Few shapes, many members: each shape asks whether any member has its type (by index).
            try await session.query(
                """
                SELECT \(Self.shapeColumns) FROM content_state_shapes s WHERE EXISTS (
                    SELECT 1 FROM activity_groups g JOIN activities a ON a.activity_id = g.activity_id
                    WHERE g.group_name = ? AND a.bundle_id = s.bundle_id AND a.attributes_type = s.attributes_type)
                ORDER BY bundle_id, attributes_type
                """,
                [.text(groupID)]
            ).map(Self.shape)
        }
    }

    package func putContentStateShape(_ shape: StoredContentStateShape) async throws(PushStoreError) -> StoredContentStateShape {
        try Self.validate(shape)
        return try await run("putContentStateShape") { session throws(PushStoreError) in
            guard
                let row = try await session.first(
                    """
                    INSERT INTO content_state_shapes (\(Self.shapeColumns)) VALUES (?, ?, ?, ?, 1, ?)
                    ON CONFLICT (bundle_id, attributes_type) DO UPDATE SET shape_json = excluded.shape_json, source = excluded.source,
                        revision = content_state_shapes.revision + 1, updated_at = excluded.updated_at
                    RETURNING \(Self.shapeColumns)
                    """,
                    Self.binds(shape))
            else { throw .database(detail: "storing a content-state shape returned no row") }
            return try Self.shape(row)
        }
    }

    package func replaceContentStateShape(_ shape: StoredContentStateShape, ifRevision revision: Int?) async throws(PushStoreError)
        -> StoredContentStateShape?
    {
        try Self.validate(shape)
        return try await run("replaceContentStateShape") { session throws(PushStoreError) in
            guard let revision else {
                return try await session.first(
                    """
                    INSERT INTO content_state_shapes (\(Self.shapeColumns)) VALUES (?, ?, ?, ?, 1, ?)
                    ON CONFLICT (bundle_id, attributes_type) DO NOTHING RETURNING \(Self.shapeColumns)
                    """,
                    Self.binds(shape)
                ).map(Self.shape)
            }
            return try await session.first(
                """
                UPDATE content_state_shapes SET shape_json = ?, source = ?, revision = revision + 1, updated_at = ?
                WHERE bundle_id = ? AND attributes_type = ? AND revision = ? RETURNING \(Self.shapeColumns)
                """,
                [
                    .text(Self.text(shape.shape.json)), .text(shape.source.rawValue), .date(shape.updatedAt), .text(shape.bundleID),
                    .text(shape.attributesType), .int(revision),
                ]
            ).map(Self.shape)
        }
    }

    package func recordContentStateRefusals(_ refusals: [ContentStateRefusal]) async throws(PushStoreError) {
        guard !refusals.isEmpty else { return }
        for refusal in refusals {
            try Validation.text(refusal.field, field: "field", max: 1024)
            try Validation.text(refusal.message, field: "message", max: 4096)
        }
        try await run("recordContentStateRefusals") { session throws(PushStoreError) in
            for refusal in refusals {
                try await session.execute(
                    """
                    INSERT INTO content_state_refusal_counts
                        (bundle_id, attributes_type, field, rule, refusals, last_target, last_message, last_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)
                    ON CONFLICT (bundle_id, attributes_type, field, rule) DO UPDATE SET
                        refusals = content_state_refusal_counts.refusals + 1, last_target = excluded.last_target,
                        last_message = excluded.last_message, last_at = excluded.last_at
                    """,
                    [
                        .text(refusal.bundleID), .text(refusal.attributesType), .text(refusal.field), .text(refusal.rule), .text(refusal.target),
                        .text(refusal.message), .date(refusal.at),
                    ])
                guard let activityID = refusal.activityID else { continue }
                try await session.execute(
                    "INSERT INTO activity_refusals (refusal_id, activity_id, field, rule, message, refused_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .text(UUID().lowercased), .text(activityID), .text(refusal.field), .text(refusal.rule), .text(refusal.message),
                        .date(refusal.at),
                    ])
                try await session.execute(
                    """
                    DELETE FROM activity_refusals WHERE activity_id = ? AND refusal_id NOT IN (
                        SELECT refusal_id FROM activity_refusals WHERE activity_id = ? ORDER BY refused_at DESC, refusal_id LIMIT ?)
                    """,
                    [.text(activityID), .text(activityID), .int(Self.refusalsKeptPerActivity)])
            }
        }
    }

    package func contentStateRefusalCounts(bundleIDs: [String]?) async throws(PushStoreError) -> [ContentStateRefusalCount] {
        try await run("contentStateRefusalCounts", readOnly: true) { session throws(PushStoreError) in
            let select =
                "SELECT bundle_id, attributes_type, field, rule, refusals, last_target, last_message, last_at FROM content_state_refusal_counts"
            let order = " ORDER BY bundle_id, attributes_type, field, rule"
            let rows =
                if let bundleIDs {
                    try await Self.queryIn(
                        session, select + " WHERE bundle_id IN ({IN})" + order, values: Array(Set(bundleIDs)).sorted().map(SQLValue.text))
                } else {
                    try await session.query(select + order)
                }
            return try rows.map { (row) throws(PushStoreError) in
                ContentStateRefusalCount(
                    bundleID: try row.string("bundle_id"), attributesType: try row.string("attributes_type"), field: try row.string("field"),
                    rule: try row.string("rule"), refusals: try row.int("refusals"), lastTarget: try row.string("last_target"),
                    lastMessage: try row.string("last_message"), lastAt: try row.date("last_at"))
            }
        }
    }

    package func contentStateRefusals(activityID: String) async throws(PushStoreError) -> [ContentStateRefusal] {
        try await run("contentStateRefusals", readOnly: true) { session throws(PushStoreError) in
            guard
                let activity = try await session.first(
                    "SELECT bundle_id, attributes_type FROM activities WHERE activity_id = ?", [.text(activityID)])
            else { return [] }
            let (bundleID, attributesType) = (try activity.string("bundle_id"), try activity.string("attributes_type"))
            return try await session.query(
                "SELECT field, rule, message, refused_at FROM activity_refusals WHERE activity_id = ? ORDER BY refused_at DESC, refusal_id",
                [.text(activityID)]
            ) { row throws(PushStoreError) in
                ContentStateRefusal(
                    bundleID: bundleID, attributesType: attributesType, target: "activity:" + activityID, activityID: activityID,
                    field: try row.string("field"), rule: try row.string("rule"), message: try row.string("message"), at: try row.date("refused_at"))
            }
        }
    }

    private static func validate(_ shape: StoredContentStateShape) throws(PushStoreError) {
        try Validation.identifier(shape.bundleID, field: "bundleId", max: 255)
        try Validation.text(shape.attributesType, field: "attributesType", max: 128)
    }

    private static func binds(_ shape: StoredContentStateShape) -> [SQLValue] {
        [.text(shape.bundleID), .text(shape.attributesType), .text(text(shape.shape.json)), .text(shape.source.rawValue), .date(shape.updatedAt)]
    }

    private static func text(_ json: JSONValue) -> String { String(decoding: json.serialized(), as: UTF8.self) }

    private static func shape(_ row: SQLRow) throws(PushStoreError) -> StoredContentStateShape {
        try shape(row, bundleID: try row.string("bundle_id"), attributesType: try row.string("attributes_type"), columnPrefix: "")
    }

    /// A shape's row read with its app's and type's key given; its columns other than `shape_json` named
    /// with `columnPrefix` (`shape_` in a join with `activities`, which has an `updated_at` of its own).
    static func shape(_ row: SQLRow, bundleID: String, attributesType: String, columnPrefix: String) throws(PushStoreError)
        -> StoredContentStateShape
    {
        let shape: ContentStateShape
        do {
            shape = try ContentStateShape(json: try JSONValue.parse(try row.string("shape_json")))
        } catch let error as PushStoreError {
            throw error
        } catch {
            throw .database(detail: "a stored content-state shape does not read back: \(error)")
        }
        return StoredContentStateShape(
            bundleID: bundleID, attributesType: attributesType, shape: shape,
            source: try row.enumValue(columnPrefix + "source", as: ContentStateShapeSource.self), revision: try row.int(columnPrefix + "revision"),
            updatedAt: try row.date(columnPrefix + "updated_at"))
    }
}
