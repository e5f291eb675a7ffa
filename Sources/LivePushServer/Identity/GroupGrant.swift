/// Which groups an app credential may put its activities in: the group rule.
///
/// Group ids are global and a group send reaches every activity in the group, so the app cannot choose
/// them alone: the backend grants them when it mints a user token (`POST /v1/users/{userId}/app-tokens`
/// with `"groups"`: group ids, or prefixes ending in `*`), and a registration naming a group the token
/// does not grant is 403 `groups` `groupNotGranted`. Installation tokens are opened with the app key,
/// which anyone holding the app has: they grant no group. A development app key grants every group.
package enum GroupGrant: Sendable, Hashable {
    /// A development app key: any group.
    case any
    /// The groups a user token grants: exact ids, and prefixes written with a trailing `*`.
    case granted([String])

    /// At most this many entries in one token.
    static let maximumEntries = 32

    /// Whether `group` may be joined: an exact entry, or an entry `prefix*` it starts with.
    func permits(_ group: String) -> Bool {
        switch self {
        case .any: return true
        case .granted(let entries):
            return entries.contains { entry in
                entry.hasSuffix("*") ? group.hasPrefix(entry.dropLast()) : entry == group
            }
        }
    }

    /// 403 naming the first group of `groups` that is not granted, and the rule.
    func check(_ groups: [String]) throws(DomainError) {
        guard let refused = groups.first(where: { !permits($0) }) else { return }
        let granted: String
        switch self {
        case .any: return
        case .granted(let entries):
            granted = entries.isEmpty ? "this credential grants no group" : "this credential grants \(entries.joined(separator: ", "))"
        }
        throw .forbidden(
            "groups", "groupNotGranted",
            "group '\(refused)' is not granted: \(granted). An app joins only the groups its backend grants in the user token (POST /v1/users/{userId}/app-tokens with \"groups\": ids, or prefixes ending in '*'); installation tokens grant none"
        )
    }

    /// The entries a backend asks to grant: at most ``maximumEntries``, each a group id or such an id's
    /// prefix followed by `*` (a lone `*` grants every group), 1 to 129 characters. The contract checks
    /// their characters (and that `*` only ends one).
    static func entries(_ entries: [String]) throws(DomainError) -> [String] {
        guard entries.count <= maximumEntries else {
            throw .invalid("groups", "maxItems", "has \(entries.count) entries; at most \(maximumEntries) group ids or prefixes are accepted")
        }
        for (index, entry) in entries.enumerated() {
            let id = entry.hasSuffix("*") ? entry.dropLast() : Substring(entry)
            guard !id.contains("*") else {
                throw .invalid(
                    "groups[\(index)]", "groupPattern", "'*' may only end an entry (a prefix such as 'party-*'); '\(entry)' has one inside")
            }
            guard !entry.isEmpty, entry.count <= 129 else {
                throw .invalid("groups[\(index)]", "groupPattern", "is a group id, or its prefix followed by '*' (1 to 129 characters)")
            }
        }
        return Array(Set(entries)).sorted()
    }
}
