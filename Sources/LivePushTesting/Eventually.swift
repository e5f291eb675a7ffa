import Foundation
import Testing

/// Waits until `condition` holds, for what a test cannot await directly: a push reaching a simulated
/// iPhone, a webhook arriving, an outbox draining. When it still does not hold after `timeout`, the test
/// fails here (an issue recorded at the caller's line), so a forgotten result cannot let a test pass;
/// the result says whether it held, for a test that goes on to read what it waited for.
///
/// ```swift
/// try await eventually { try await apns.contentState(of: activity)["hp"] == 0.5 }
/// ```
///
/// The timeout is a bound for a broken test, not a measure: the wait ends when the event happens. For a
/// wait that may run out without failing the test, use ``pollUntil(isolation:timeout:every:_:)``.
@discardableResult
public func eventually(
    isolation: isolated (any Actor)? = #isolation,
    timeout: Duration = .seconds(60),
    every interval: Duration = .milliseconds(20),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    if try await pollUntil(timeout: timeout, every: interval, condition) { return true }
    Issue.record("eventually: the condition did not hold within \(timeout)", sourceLocation: sourceLocation)
    return false
}

/// Polls `condition` until it holds or `timeout` passes and returns whether it held, recording nothing:
/// for a wait that may run out without failing the test (a connection the server may or may not have
/// closed yet). To wait for an event the test expects, use ``eventually(isolation:timeout:every:sourceLocation:_:)``.
public func pollUntil(
    isolation: isolated (any Actor)? = #isolation,
    timeout: Duration,
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
