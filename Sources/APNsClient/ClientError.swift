import APNsCore

/// Why a request got no answer from APNs. Answers with an error status are not errors here: they come
/// back as an `APNsResponse` with a typed reason.
public enum APNsClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TCP connection could not be made (refused, unreachable, DNS).
    case connectFailed(endpoint: String, detail: String)
    /// TLS failed: usually an untrusted or mismatched certificate, or no HTTP/2 (ALPN h2) support.
    case tlsFailed(endpoint: String, detail: String)
    /// No answer before the request's deadline.
    case timedOut(seconds: Double)
    /// The connection closed before the answer. `processed` is false when the server certainly did not
    /// process the request (refused stream, GOAWAY below its id, never sent), so a retry cannot duplicate it.
    case connectionClosed(processed: Bool, detail: String)
    /// The server sent GOAWAY; the reason is APNs' JSON reason when it gave one.
    case goAway(reason: APNsReason?, processed: Bool)
    /// The server's answer broke HTTP/2 or APNs' shape.
    case protocolError(String)
    /// The client was shut down.
    case shutDown
    /// No key of the client's keyring covers the push's topic in the endpoint's environment; the push
    /// was not sent.
    case noProviderKey(topic: String, detail: String)

    public var description: String {
        switch self {
        case .connectFailed(let endpoint, let detail):
            let address = endpoint.hasPrefix("https://") ? String(endpoint.dropFirst("https://".count)) : endpoint
            return "cannot connect to \(address): \(detail) (is the simulator or APNs host reachable?)"
        case .tlsFailed(let endpoint, let detail):
            guard Self.isUntrustedCertificate(detail) else { return "TLS with \(endpoint) failed: \(detail)" }
            // The cause and the fix first; the TLS library's own words last.
            return "TLS with \(endpoint) failed: its certificate is not signed by a CA this client trusts. "
                + "For the local simulator, trust its CA: --ca-file \(SimulatorDefaults.caCertificatePath()) "
                + "(or DIR/ca.pem for a simulator started with --data-dir DIR). TLS said: \(detail)"
        case .timedOut(let seconds):
            return "no answer within \(seconds) s"
        case .connectionClosed(let processed, let detail):
            return
                "connection closed before the answer (\(processed ? "the request may have been processed" : "the request was not processed")): \(detail)"
        case .goAway(let reason, let processed):
            return
                "server closed the connection (GOAWAY\(reason.map { " \($0.rawValue)" } ?? "")); the request \(processed ? "may have been processed" : "was not processed")"
        case .protocolError(let detail):
            return "protocol error: \(detail)"
        case .shutDown:
            return "the client is shut down"
        case .noProviderKey(_, let detail):
            return detail
        }
    }

    /// Whether a TLS failure's detail says the server's certificate chain is not trusted (BoringSSL's
    /// `CERTIFICATE_VERIFY_FAILED`), the failure a client that does not trust the simulator's CA meets.
    static func isUntrustedCertificate(_ detail: String) -> Bool {
        detail.contains("CERTIFICATE_VERIFY_FAILED") || detail.localizedCaseInsensitiveContains("certificate verify failed")
            || detail.contains("unable to get local issuer certificate")
    }

    /// True when a retry cannot duplicate the push.
    public var certainlyNotProcessed: Bool {
        switch self {
        case .connectFailed, .tlsFailed, .noProviderKey: return true
        case .connectionClosed(let processed, _), .goAway(_, let processed): return !processed
        case .timedOut, .protocolError, .shutDown: return false
        }
    }

    /// True when an open connection went away under the request (closed, or GOAWAY) before its answer.
    public var isLostConnection: Bool {
        switch self {
        case .connectionClosed, .goAway: return true
        case .connectFailed, .tlsFailed, .timedOut, .protocolError, .shutDown, .noProviderKey: return false
        }
    }

    /// True when trying again (on a new connection) may succeed.
    public var isRetryable: Bool {
        switch self {
        case .connectFailed, .timedOut, .connectionClosed, .goAway: return true
        case .tlsFailed, .protocolError, .shutDown, .noProviderKey: return false
        }
    }
}
