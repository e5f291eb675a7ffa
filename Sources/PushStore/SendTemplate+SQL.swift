import Foundation

/// A ``SendTemplate`` in the columns the tables of sends to many give it, in this order.
extension SendTemplate {
    static let columns = ["payload", "timestamp", "requested_priority", "importance", "collapse_key", "expiration"]

    /// Checks what the store's columns limit.
    func validate() throws(PushStoreError) {
        try Validation.priority(requestedPriority, field: "requestedPriority")
        try Validation.optionalIdentifier(collapseKey, field: "collapseKey", max: 64)
    }

    /// The values of ``columns``.
    var values: [SQLValue] {
        [.blob(payload), .date(timestamp), .int(requestedPriority.rawValue), .text(importance.rawValue), .text(collapseKey), .date(expiration)]
    }

    /// Reads ``columns`` from a row.
    init(_ row: SQLRow) throws(PushStoreError) {
        self.init(
            payload: try row.data("payload"), timestamp: try row.date("timestamp"),
            requestedPriority: try RowDecoding.priority(row, "requested_priority"),
            importance: try row.enumValue("importance", as: PushImportance.self), collapseKey: try row.optionalString("collapse_key"),
            expiration: try row.optionalDate("expiration"))
    }
}
