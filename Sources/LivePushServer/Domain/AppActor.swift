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
                throw .forbidden(
                    field, "otherUser", "this credential acts for user '\(user)' only; '\(field)' is '\(claimed)' (leave it out or give '\(user)')")
            }
            return user
        }
    }

    /// Whether this actor may see and change `activity`: its user's own activities (any for a development
    /// key). Another user's activity is answered exactly like a missing one (``ActivityService``), so that
    /// no credential learns which ids exist.
    func owns(_ activity: ActivityRecord) -> Bool {
        switch self {
        case .anyUser: return true
        case .installer: return false
        case .user(let user): return activity.userID == user
        }
    }

    /// How registrations by this actor treat an activity already stored: a user or installation never
    /// takes another's; a development key may.
    var registrationOwnership: RegistrationOwnership {
        if case .anyUser = self { return .replace }
        return .keep
    }

    static let installerRefusal = DomainError.forbidden(
        "Authorization", "installerKey",
        "an app key only opens installations (POST /v1/installations); register and change activities with the user token the backend mints (POST /v1/users/{userId}/app-tokens) or with the installation's token"
    )
}
