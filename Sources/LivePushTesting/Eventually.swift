import Foundation

/// Polls `condition` until it holds or `timeout` passes; returns whether it held. For what a test
/// cannot await directly: a push reaching a simulated iPhone, a webhook arriving, an outbox draining.
///
/// ```swift
/// #expect(await eventually { try await apns.contentState(of: activity)["hp"] == 0.5 })
/// ```
public func eventually(
    isolation: isolated (any Actor)? = #isolation,
    timeout: Duration = .seconds(20),
    every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
