import Foundation

/// ``ActivityStore/activityToSend(id:)``: the activity and its app's content-state shape in one statement.
extension SQLPushStore {
    package func activityToSend(id: String) async throws(PushStoreError) -> ActivityToSend? {
        try Validation.identifier(id, field: "activityId")
        return try await run("activityToSend", readOnly: true) { session throws(PushStoreError) in
            guard let row = try await session.first(Self.activityToSendQuery, [.text(id)]) else { return nil }
            let activity = try RowDecoding.activity(row)
            guard try row.optionalString("shape_json") != nil else { return ActivityToSend(activity: activity, shape: nil) }
            let shape = try Self.shape(row, bundleID: activity.bundleID, attributesType: activity.attributesType, columnPrefix: "shape_")
            return ActivityToSend(activity: activity, shape: shape)
        }
    }

    private static let activityToSendQuery = """
        SELECT \(RowDecoding.activityColumnsWithoutContentState(of: "a.")), s.shape_json AS shape_json, s.source AS shape_source, \
        s.revision AS shape_revision, s.updated_at AS shape_updated_at
        FROM activities a LEFT JOIN content_state_shapes s ON s.bundle_id = a.bundle_id AND s.attributes_type = a.attributes_type
        WHERE a.activity_id = ?
        """
}
