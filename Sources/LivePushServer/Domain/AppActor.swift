import PushStore

/// Whom an app request acts for, and the rules that follow: an app touches only its user's data.
package enum AppActor: Sendable, Hashable {
    /// A development app key (`--app-key`): acts for any user. For local use only; the server says so
    /// when it starts.
    case anyUser
    /// A user token or an installation token: acts for this user (or installation) id only.
    case user(String)
    /// A stored app key, the credential an app ships: it only opens installations
    /// (`POST /v1/installations`), whose tokens then act for one installation each.
    case installer

    /// The user a registration belongs to, given the `userId` its body claims (`field` names it): the
    /// token's user (the body may repeat it), or the body's for a development key. An installer acts
    /// for nobody.
    func owner(claimed: String?, field: String = "userId") throws(DomainError) -> String? {
        switch self {
        case .anyUser:
            return claimed
        case .installer:
            throw Self.installerRefusal
        case .user(let user):
            if let claimed, claimed != user {
                throw .forbidden(field, "otherUser", "this credential acts for user '\(user)' only; '\(field)' is '\(claimed)' (leave it out or give '\(user)')")
            }
            return user
        }
    }

    /// Throws unless this actor may change `activity` (its user's own activities; any for a
    /// development key).
    func mayChange(_ activity: ActivityRecord) throws(DomainError) {
        switch self {
        case .anyUser:
            return
        case .installer:
            throw Self.installerRefusal
        case .user(let user):
            guard activity.userId == user else {
                throw .forbidden("activityId", "otherUser", "activity '\(activity.activityId)' does not belong to user '\(user)', for whom this credential acts")
            }
        }
    }

    static let installerRefusal = DomainError.forbidden(
        "Authorization", "installerKey",
        "an app key only opens installations (POST /v1/installations); register and change activities with the user token the backend mints (POST /v1/users/{userId}/app-tokens) or with the installation's token")
}
