import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain words for why the TCP connection could not be made ("connection refused", "cannot resolve
/// api.example.com"), instead of NIO's error dumps.
enum ConnectFailure {
    static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            guard !error.connectionErrors.isEmpty else {
                if error.dnsAError != nil || error.dnsAAAAError != nil { return "cannot resolve the host name \(error.host)" }
                return "\(error)"
            }
            let failures = error.connectionErrors.map { (address: $0.target.ipAddress ?? "\($0.target)", reason: describe($0.error)) }
            let reasons = failures.map(\.reason)
            if Set(reasons).count == 1 { return reasons[0] }
            return failures.map { "\($0.reason) (\($0.address))" }.joined(separator: ", ")
        }
        if let error = error as? IOError { return reason(errno: error.errnoCode) }
        if case ChannelError.connectTimeout = error { return "timed out" }
        return "\(error)"
    }

    static func reason(errno code: CInt) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ETIMEDOUT: return "timed out"
        case EHOSTUNREACH: return "host unreachable"
        case ENETUNREACH: return "network unreachable"
        case ECONNRESET: return "connection reset"
        case EADDRNOTAVAIL: return "address not available"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
