import APNsCore
import Foundation

/// The APNs environment a database serves. A push token is valid in one environment only, and the outbox
/// has no environment column: a sandbox and a production server sharing a database would claim and send
/// each other's pushes. So a database belongs to the first environment a server opened it for.
package protocol EnvironmentBindingStore: Sendable {
    /// Records `environment` as the database's when none is recorded yet (a new database, or one made
    /// before databases recorded it), and returns the recorded binding: `environment`, or the one
    /// recorded before. Of concurrent first calls (from several processes too) exactly one records its
    /// environment, and every call answers that one.
    func bindEnvironment(_ environment: APNsEnvironment, at: Date) async throws(PushStoreError) -> EnvironmentBinding

    /// The recorded binding, nil when no server with a known environment has opened the database yet.
    func environmentBinding() async throws(PushStoreError) -> EnvironmentBinding?
}

/// The environment recorded for a database, and when it was recorded.
package struct EnvironmentBinding: Sendable, Hashable {
    package var environment: APNsEnvironment
    package var recordedAt: Date
}
