import Hummingbird

/// What the control API serves: requests to its own addresses (a `Host` of `localhost` or an IP
/// address, so that a DNS name rebound to this machine reaches nothing) and, when a browser sends an
/// `Origin`, only from the control API's own origin. A web page the developer visits can then neither
/// read the API through a rebound name nor change it with a cross-site request (trusting its own key,
/// adding devices). Refusals are 403 with the header at fault.
struct ControlRequestGuard<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority
        if let authority, !Self.isOwnAddress(authority) {
            throw ControlError(
                .forbidden, field: "Host",
                "is '\(authority)'; the control API answers requests to localhost or an IP address of this machine, not to a host name")
        }
        if let origin = request.headers[.origin] {
            guard let authority, origin.lowercased() == "http://" + authority.lowercased() else {
                throw ControlError(
                    .forbidden, field: "Origin",
                    "is '\(origin)'; the control API takes browser requests only from its own pages (http://\(authority ?? "its address"))")
            }
        }
        return try await next(request, context)
    }

    private static func isDigit(_ character: Character) -> Bool { ("0"..."9").contains(character) }

    /// `localhost`, an IPv4 address or a bracketed IPv6 address, with an optional port.
    static func isOwnAddress(_ authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(Self.isDigit)) else { return false }
            return host[host.index(after: host.startIndex)..<close].allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(Self.isDigit) else { return false }
            host = host[..<colon]
        }
        if host.lowercased() == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in !part.isEmpty && part.count <= 3 && part.allSatisfy(Self.isDigit) && Int(part)! <= 255 }
    }
}
