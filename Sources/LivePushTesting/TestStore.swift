import Foundation

/// Where a test server keeps its state: a SQLite file in a temporary folder, or a schema of its own in a
/// PostgreSQL database, dropped afterwards.
public enum TestStore: Sendable, Hashable, CustomStringConvertible {
    case sqlite
    /// A PostgreSQL database reachable at `url` (`postgres://user:password@host:port/database`).
    case postgres(url: String)

    /// The PostgreSQL URL in `LIVEPUSH_TEST_POSTGRES_URL`, when set.
    public static var postgresURLFromEnvironment: String? {
        let value = ProcessInfo.processInfo.environment["LIVEPUSH_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }

    /// SQLite always, and PostgreSQL when `LIVEPUSH_TEST_POSTGRES_URL` is set: the arguments of a test
    /// that runs on every store there is (`@Test(arguments: TestStore.available)`).
    public static var available: [TestStore] {
        [.sqlite] + (postgresURLFromEnvironment.map { [.postgres(url: $0)] } ?? [])
    }

    public var description: String {
        switch self {
        case .sqlite: return "sqlite"
        case .postgres: return "postgres"
        }
    }
}
