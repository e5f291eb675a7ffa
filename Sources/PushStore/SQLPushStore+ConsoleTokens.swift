import Foundation

/// The age of an activity's token as the console shows it: from the token's own arrival, not from the
/// activity's last change (a state update or a content push moves `updated_at`, not the token).
extension SQLPushStore {
    package func currentTokenSince(activityID: String) async throws(PushStoreError) -> Date? {
        try Validation.identifier(activityID, field: "activityId")
        return try await run("currentTokenSince", readOnly: true) { session throws(PushStoreError) in
            guard let activity = try await session.first("SELECT registered_at FROM activities WHERE activity_id = ?", [.text(activityID)])
            else { return nil }
            // A rotation retires the token before it, at the moment the new one arrives (`retired_tokens_activity`).
            let rotated = try await session.first(
                "SELECT MAX(retired_at) AS at FROM retired_tokens WHERE activity_id = ?", [.text(activityID)])
            if let at = try rotated?.optionalDate("at") { return at }
            return try activity.date("registered_at")
        }
    }
}
