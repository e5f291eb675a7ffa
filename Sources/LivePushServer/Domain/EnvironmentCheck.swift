import APNsCore
import Foundation
import Logging
import PushStore

/// One database per APNs environment: before the server starts, the store is bound to the server's
/// environment (recorded by the first server with a known environment that opens it) and a server for
/// the other one is refused. The outbox has no environment column, so two servers of different
/// environments on one database would claim, and send to the wrong host, each other's pushes.
///
/// A server without a known environment (`--url`: the simulator, or a proxy) records and checks nothing.
struct EnvironmentCheck: Sendable {
    let store: any EnvironmentBindingStore
    let environment: APNsEnvironment?
    let clock: any WallClock
    let logger: Logger

    /// Binds the store to the server's environment; throws ``ServerStartError/otherEnvironment(database:server:recordedAt:)``
    /// when it belongs to the other one, and the store's error when it cannot tell.
    func verify() async throws {
        guard let environment else { return }
        let binding: EnvironmentBinding
        if let recorded = try await store.environmentBinding() {
            binding = recorded
        } else {
            // Of servers starting together on a new (or upgraded) database, the first to record wins.
            binding = try await store.bindEnvironment(environment, at: clock.now())
            if binding.environment == environment {
                logger.notice("the database now serves this APNs environment only", metadata: ["environment": "\(environment.rawValue)"])
            }
        }
        guard binding.environment == environment else {
            throw ServerStartError.otherEnvironment(database: binding.environment, server: environment, recordedAt: binding.recordedAt)
        }
    }
}
