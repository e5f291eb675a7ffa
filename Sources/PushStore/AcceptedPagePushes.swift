import Foundation

/// The pushes of one group page that went as planned: accepted by APNs at the first attempt, at the send's
/// requested priority, answered with their own push id as `apns-id`. Everything else about them is the
/// send's (id, kind, payload, priority, time) or the page's (when sent and recorded), so the page records
/// them in one row (`group_send_page_records`) instead of a history row each; the history reads them back
/// from it. What differs per push, its activity and the `apns-unique-id` APNs answers in development, is
/// kept in `members`: one line per push, `\n<activity id>\t<unique id or nothing>`, closed by `\n` (ids
/// hold no control characters, so a line is found by its `\n<id>\t` prefix).
package struct AcceptedPagePushes: Sendable, Hashable {
    /// The encoded lines.
    package private(set) var members = ""
    package private(set) var count = 0
    /// When the last of them was answered.
    package private(set) var lastSentAt: Date?

    package init() {}

    package mutating func append(activityID: String, apnsUniqueID: String?, sentAt: Date) {
        members += "\n\(activityID)\t\(apnsUniqueID ?? "")"
        count += 1
        lastSentAt = max(lastSentAt ?? sentAt, sentAt)
    }

    /// The members as stored: the lines, closed by `\n`.
    var stored: String { members + "\n" }

    /// What `stored` holds for one activity, when it is there: the line's prefix to search for.
    static func linePrefix(of activityID: String) -> String { "\n\(activityID)\t" }

    /// The `apns-unique-id` of `activityID`'s push in stored `members` (nil: none was answered); throws when
    /// the activity is not there.
    static func uniqueID(of activityID: String, in members: String) throws(PushStoreError) -> String? {
        let prefix = linePrefix(of: activityID)
        guard let range = members.range(of: prefix) else {
            throw .database(detail: "a group page record does not list activity \(activityID)")
        }
        let rest = members[range.upperBound...]
        let value = rest[..<(rest.firstIndex(of: "\n") ?? rest.endIndex)]
        return value.isEmpty ? nil : String(value)
    }
}
