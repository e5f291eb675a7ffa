/// Who an audience start is for: the users listed (1 to ``maximumUsers`` distinct, non-empty ids), or
/// every user with a valid push-to-start token for the attributes type.
enum AudienceStartAudience: Sendable, Hashable {
    case users([String])
    case everyoneWithToken

    /// The most user ids one audience start takes.
    static let maximumUsers = 10_000

    /// The audience a request asks for: `userIds`, or `everyone: true`, not both.
    static func validated(userIDs: [String]?, everyone: Bool?) throws(DomainError) -> AudienceStartAudience {
        switch (userIDs, everyone ?? false) {
        case (nil, false):
            throw .invalid("userIds", "required", "give 'userIds' (1 to \(maximumUsers) user ids) or 'everyone': true")
        case (.some, true):
            throw .invalid("everyone", "oneOf", "give either 'userIds' or 'everyone': true, not both")
        case (nil, true):
            return .everyoneWithToken
        case (let ids?, false):
            guard !ids.isEmpty else {
                throw .invalid("userIds", "minCount", "has no user ids; give 1 to \(maximumUsers), or 'everyone': true")
            }
            guard ids.count <= maximumUsers else {
                throw .invalid("userIds", "maxCount", "has \(ids.count) user ids; an audience start takes at most \(maximumUsers)")
            }
            var seen = Set<String>(minimumCapacity: ids.count)
            for (index, id) in ids.enumerated() {
                guard !id.isEmpty else { throw .invalid("userIds[\(index)]", "nonEmpty", "is empty; a user id has at least one character") }
                guard seen.insert(id).inserted else {
                    throw .invalid("userIds[\(index)]", "unique", "'\(id)' is listed more than once; list each user once")
                }
            }
            return .users(ids)
        }
    }
}
