import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every address a host name resolves to, so that each can be checked and the connection made to one
/// that was (``WebhookPoster`` hands it to async-http-client through `dnsOverride`; left to resolve
/// the host itself, AHC would connect to a second DNS answer that could differ from the one checked).
enum WebhookResolver {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The TCP addresses of `host` on `port`, in the resolver's order, without duplicates; getaddrinfo
    /// blocks, so it runs on NIO's thread pool.
    static func resolve(host: String, port: Int) async throws -> [SocketAddress] {
        if let literal = try? SocketAddress(ipAddress: host, port: port) { return [literal] }
        return try await NIOThreadPool.singleton.runIfActive {
            try resolveBlocking(host: host, port: port)
        }
    }

    private static func resolveBlocking(host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
            hints.ai_protocol = IPPROTO_TCP
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_protocol = Int32(IPPROTO_TCP)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(description: "cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            guard let raw = info.pointee.ai_addr else { continue }
            let address: SocketAddress
            switch info.pointee.ai_family {
            case AF_INET:
                address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            case AF_INET6:
                address = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            default:
                continue
            }
            if !addresses.contains(address) { addresses.append(address) }
        }
        guard !addresses.isEmpty else { throw Failure(description: "'\(host)' has no IPv4 or IPv6 address") }
        return addresses
    }
}
