import APNsCore
import Foundation
import LivePushServer
import Logging

/// How ``withServer(_:over:isolation:_:)`` sets up `livepush serve` for a test: its store, and for our
/// own tests the parts a user never replaces (a stand-in sender, a clock, the whole configuration).
public struct ServerOptions: Sendable {
    /// SQLite in a temporary folder, or a fresh schema in PostgreSQL.
    public var store: TestStore
    /// The server's log level.
    public var logLevel: Logger.Level = .warning
    /// What the delivery workers send through, instead of an APNs client for the simulator.
    package var sender: (any PushSending)?
    /// The server's clock: its lifecycle sweep (the 8-hour limit, renewals, dismissal) and every date
    /// it stamps follow it. Give it the simulator's (`apns.clock`) to run the server on the simulated
    /// iPhones' time, which `POST /v1/clock` moves forward and `clockRate` speeds up; the sweep then runs
    /// every simulated minute. For tests and the demo only: `livepush serve` runs on the system's clock.
    public var clock: any WallClock = SystemWallClock()
    /// Receives the server's and the store's logs (a test that reads them).
    package var logger: Logger?
    /// Adjusts the test defaults (fast polling and retries, no lifecycle sweeps), last.
    package var configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    /// The folder for the SQLite file; nil: a new temporary one, deleted afterwards.
    package var directory: URL?

    public init(store: TestStore = .sqlite, logLevel: Logger.Level = .warning) {
        self.store = store
        self.logLevel = logLevel
    }

    package init(
        store: TestStore = .sqlite, sender: (any PushSending)? = nil, clock: any WallClock = SystemWallClock(),
        logger: Logger? = nil, directory: URL? = nil, configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) {
        self.store = store
        self.sender = sender
        self.clock = clock
        self.logger = logger
        self.directory = directory
        self.configure = configure
    }
}
