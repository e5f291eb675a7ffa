/// How the app proves who it reports for. The app never holds a key that can act for another user.
public enum LivePushCredential: Sendable {
    /// Apps with accounts: a user token your backend got from `POST /v1/users/{userId}/app-tokens`.
    /// LivePushKit calls the closure before its first request with `renew` false, and again with `renew`
    /// true when the server answered 401 (the token expired or was withdrawn): return a new one then.
    case userToken(@Sendable (_ renew: Bool) async throws -> String)
    /// Apps without accounts: an installation opened once with an app key of scope `app`
    /// (`POST /v1/installations`), kept in the journal and renewed before it expires
    /// (`POST /v1/installations/{id}/token`). Your backend addresses it by its id: ``LivePushReporter/installationID``.
    case installation(appKey: String)
}
