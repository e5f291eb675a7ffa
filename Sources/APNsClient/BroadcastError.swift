import APNsCore

/// Why a broadcast or a channel management request failed (docs/apns-protocol.md §10.3).
public enum APNsBroadcastError: Error, Sendable, Equatable, CustomStringConvertible {
    /// APNs answered with an error status. `reason` is typed for every documented broadcast reason
    /// (`ChannelNotRegistered`, `BadExpirationDate`, `CannotCreateChannelConfig`, …); `requestID` is the
    /// `apns-request-id` to quote when asking Apple about it.
    case rejected(status: Int, reason: APNsReason, requestID: String?)
    /// No answer: connect, TLS, timeout or a lost connection, after the client's retries.
    case transport(APNsClientError)
    /// The request broke a rule checked before sending (the bundle id); nothing was sent.
    case invalidRequest(String)
    /// The answer's status was a success but its shape was not APNs' (no channel id, a body that is
    /// not the documented JSON).
    case unexpectedAnswer(String)

    public var description: String {
        switch self {
        case .rejected(let status, let reason, let requestID):
            return "APNs answered \(status) \(reason.rawValue): \(reason.broadcastRemedy)"
                + (requestID.map { " (apns-request-id \($0))" } ?? "")
        case .transport(let error):
            return error.description
        case .invalidRequest(let detail):
            return "not sent: \(detail)"
        case .unexpectedAnswer(let detail):
            return "unexpected answer from APNs: \(detail)"
        }
    }

    /// The typed reason of a rejection.
    public var reason: APNsReason? {
        if case .rejected(_, let reason, _) = self { return reason }
        return nil
    }
}
