import Foundation

/// ``ActivityStore/activityToSend(id:)`` and ``ActivityStore/activitiesToSend(ids:)``: activities with their
/// apps' content-state shapes (and, for a batch, the renewal links) in one statement.
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

    package func activitiesToSend(ids: [String]) async throws(PushStoreError) -> [ActivityToSend] {
        for (index, id) in ids.enumerated() { try Validation.identifier(id, field: "ids[\(index)]") }
        guard !ids.isEmpty else { return [] }
        let values = Array(Set(ids)).sorted().map { SQLValue.text($0) }
        // Up to 500 ids are one statement, which needs no transaction.
        return try await run("activitiesToSend", readOnly: values.count <= 500) { session throws(PushStoreError) in
            var found = [ActivityToSend]()
            found.reserveCapacity(values.count)
            // A shape is parsed once per app and type, not once per activity of it.
            var shapes = [String: StoredContentStateShape?]()
            for row in try await Self.queryIn(session, Self.activitiesToSendQuery, values: values, chunk: 500) {
                let activity = try RowDecoding.activity(row)
                let key = activity.bundleID + "\u{0}" + activity.attributesType
                let shape: StoredContentStateShape?
                if let known = shapes[key] {
                    shape = known
                } else {
                    shape =
                        try row.optionalString("shape_json") == nil
                        ? nil : try Self.shape(row, bundleID: activity.bundleID, attributesType: activity.attributesType, columnPrefix: "shape_")
                    shapes[key] = .some(shape)
                }
                found.append(ActivityToSend(activity: activity, shape: shape, renewedBy: try row.optionalString("renewed_by")))
            }
            return found
        }
    }

    private static let shapeJoin = """
        s.shape_json AS shape_json, s.source AS shape_source, s.revision AS shape_revision, s.updated_at AS shape_updated_at
        """

    private static let activityToSendQuery = """
        SELECT \(RowDecoding.activityColumnsWithoutContentState(of: "a.")), \(shapeJoin)
        FROM activities a LEFT JOIN content_state_shapes s ON s.bundle_id = a.bundle_id AND s.attributes_type = a.attributes_type
        WHERE a.activity_id = ?
        """

    private static let activitiesToSendQuery = """
        SELECT \(RowDecoding.activityColumnsWithoutContentState(of: "a.")), \(shapeJoin), r.renewed_by AS renewed_by
        FROM activities a LEFT JOIN content_state_shapes s ON s.bundle_id = a.bundle_id AND s.attributes_type = a.attributes_type
        LEFT JOIN activity_renewals r ON r.activity_id = a.activity_id
        WHERE a.activity_id IN ({IN})
        """
}
