import APNsAuth
import APNsCore
import APNsSimulator
import Foundation
import Logging

/// Runs `body` with a local APNs (the simulator, on loopback ports the kernel picks, with its own
/// certificates and a provider key it trusts), and shuts it down afterwards, whatever `body` does. It
/// first waits for a place in the ``ScopeGate`` (at most ``ScopeGate/width`` scopes run at once).
///
/// ```swift
/// @Test func theScoreReachesTheLockScreen() async throws {
///     try await withSimulator { apns in
///         let activity = try await apns.startActivity(contentState: ["score": 0])
///         try await apns.withClient { client in
///             _ = try await client.send(apns.update(activity, contentState: ["score": 1]))
///         }
///         #expect(try await apns.contentState(of: activity)["score"] == 1)
///     }
/// }
/// ```
public func withSimulator<Result>(
    _ options: SimulatorOptions = SimulatorOptions(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (SimulatedAPNs) async throws -> Result
) async throws -> Result {
    try await ScopeGate.run {
        try await withTemporaryDirectory(prefix: "livepush-simulator") { folder in
            try await withScopedResource {
                try await SimulatedAPNs.start(options, directory: folder)
            } stop: { apns in
                await apns.simulator.shutdown()
            } _: { apns in
                try await body(apns)
            }
        }
    }
}
