/// What became of one request, as far as the reporter cares.
enum UploadOutcome: Sendable, Equatable {
    /// The server stored it.
    case stored
    /// Worth sending again later: the network failed, a 5xx, or 429 (with its `Retry-After`).
    case retry(reason: String, retryAfter: Duration?)
    /// 401: the credential expired or was withdrawn; renew it and send again.
    case unauthorized(message: String)
    /// 404: the server does not know the activity (or installation).
    case unknownToServer(message: String)
    /// Any other 4xx: the server named what is wrong; sending the same again would be refused again.
    case refused(status: Int, field: String?, rule: String, message: String)
}
