import Foundation
import PostgresNIO

/// Reads `postgres://user:password@host:port/database?sslmode=...` into a client configuration.
/// `sslmode` follows libpq: `disable`, `prefer` (the default: TLS when the server offers it, without
/// certificate checks), `require` (TLS, no certificate checks), `verify-ca`, `verify-full`.
enum PostgresURL {
    struct Parsed {
        var configuration: PostgresClient.Configuration
        /// host:port/database, for messages (never the password).
        var redacted: String
    }

    static func parse(_ url: String) throws(PushStoreError) -> Parsed {
        let accepted = "accepted: postgres://user:password@host:port/database[?sslmode=disable|prefer|require|verify-ca|verify-full]"
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .invalidInput(field: "url", rule: "is not a URL; \(accepted)")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidInput(field: "url", rule: "has scheme '\(scheme)'; \(accepted)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidInput(field: "url", rule: "has no host; \(accepted)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw .invalidInput(field: "url", rule: "has no user name; \(accepted)")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw .invalidInput(field: "url", rule: "has port \(port); a port is 1 to 65535")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else {
            throw .invalidInput(field: "url", rule: "names no database (the path after the port); \(accepted)")
        }
        var sslMode = "prefer"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode": sslMode = item.value ?? ""
            default:
                throw .invalidInput(field: "url", rule: "has parameter '\(item.name)'; only sslmode is accepted")
            }
        }
        let tls: PostgresClient.Configuration.TLS
        var unverified = TLSConfiguration.makeClientConfiguration()
        unverified.certificateVerification = .none
        switch sslMode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(unverified)
        case "require": tls = .require(unverified)
        case "verify-ca":
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            tls = .require(configuration)
        case "verify-full": tls = .require(.makeClientConfiguration())
        default:
            throw .invalidInput(
                field: "url", rule: "has sslmode '\(sslMode)'; accepted: disable, prefer, require, verify-ca, verify-full")
        }
        let configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: components.password, database: database, tls: tls)
        return Parsed(configuration: configuration, redacted: "\(host):\(port)/\(database)")
    }
}
