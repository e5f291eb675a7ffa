import APNsCore
import Foundation

/// Where the client connects: one of Apple's environments, or any `https://host:port` (the local simulator).
public struct APNsEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The environment the endpoint serves, when known (Apple's hosts).
    public var environment: APNsEnvironment?

    public init(host: String, port: Int, environment: APNsEnvironment? = nil) {
        self.host = host
        self.port = port
        self.environment = environment
    }

    /// Apple's host for an environment, on port 443 or 2197.
    public static func apple(_ environment: APNsEnvironment, port: Int = APNsEnvironment.defaultPort) -> APNsEndpoint {
        APNsEndpoint(host: environment.host, port: port, environment: environment)
    }

    /// Apple's channel management host for an environment, on its port (2195 sandbox, 2196 production).
    public static func channelManagement(_ environment: APNsEnvironment) -> APNsEndpoint {
        APNsEndpoint(host: environment.channelManagementHost, port: environment.channelManagementPort, environment: environment)
    }

    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case notAURL(String)
        case notHTTPS(String)
        case badPort(String)

        public var description: String {
            switch self {
            case .notAURL(let text): return "'\(text)' is not a URL; expected https://HOST[:PORT], e.g. https://127.0.0.1:2197"
            case .notHTTPS(let text): return "'\(text)' is not https; APNs is HTTP/2 over TLS, so the URL must start with https://"
            case .badPort(let text): return "'\(text)' has a port outside 1-65535"
            }
        }
    }

    /// Parses `https://host[:port]` (a path, if any, is ignored). The port defaults to 443.
    public init(url text: String) throws(ParseError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { throw .notAURL(text) }
        guard scheme.lowercased() == "https" else { throw .notHTTPS(text) }
        let port = components.port ?? 443
        guard (1...65535).contains(port) else { throw .badPort(text) }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let environment = APNsEnvironment.allCases.first { $0.host == bareHost || $0.channelManagementHost == bareHost }
        self.init(host: bareHost, port: port, environment: environment)
    }

    /// The `:authority` pseudo header.
    public var authority: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return port == 443 ? hostPart : "\(hostPart):\(port)"
    }

    public var description: String { "https://\(authority)" }
}
