import Foundation
import PushStore

/// The console's page cursors: opaque base64url text, so that any id (with `/`, `&` or spaces in it)
/// travels in a query string as it is. An activity page's cursor is the last id it showed; a send
/// page's (group sends and audience starts), the last send's acceptance time and id.
enum ConsoleCursor {
    static func activity(after id: String) -> String { encode("a:" + id) }

    /// The cursor after a send of the console's list (a group send or an audience start).
    static func send(after acceptedAt: Date, id: UUID) -> String {
        encode("s:\(acceptedAt.timeIntervalSince1970):\(id.lowercased)")
    }

    /// The activity id a cursor of an activity page names.
    static func activity(_ cursor: String) throws(DomainError) -> String {
        guard let text = decode(cursor), text.hasPrefix("a:"), text.count > 2 else { throw invalid() }
        return String(text.dropFirst(2))
    }

    static func groupSend(_ cursor: String) throws(DomainError) -> GroupSendCursor {
        guard let text = decode(cursor), text.hasPrefix("s:") else { throw invalid() }
        let parts = text.dropFirst(2).split(separator: ":")
        guard parts.count == 2, let seconds = Double(parts[0]), let id = UUID(uuidString: String(parts[1])) else { throw invalid() }
        return GroupSendCursor(acceptedAt: Date(timeIntervalSince1970: seconds), sendID: id)
    }

    /// A cursor this list did not give names no page (404), as an unknown id does.
    private static func invalid() -> DomainError {
        .notFound("cursor", "'cursor' names no page of this list; pass the 'next' of the previous page as it is")
    }

    private static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func decode(_ cursor: String) -> String? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }
}
