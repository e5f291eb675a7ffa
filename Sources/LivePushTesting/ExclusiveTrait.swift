import Testing

/// A Swift Testing trait for a test or suite that must not run beside other scopes of this library: it
/// waits until no ``withSimulator(_:isolation:_:)`` or ``withServer(_:over:isolation:_:)`` of another test
/// runs, and holds every place of the ``ScopeGate`` while it runs (its own scopes share them). For tests
/// that measure time on the machine's clock, or that load the machine themselves (a headless browser,
/// ten thousand activities). On a suite it holds them for the whole suite; add `.serialized` as well when
/// its tests must not run beside each other either.
///
/// ```swift
/// @Suite(.exclusive) struct ListenerDeadlineTests { … }
/// ```
public struct ExclusiveTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ScopeGate.run(weight: ScopeGate.width) { try await function() }
    }
}

extension Trait where Self == ExclusiveTrait {
    /// The test (or every test of the suite) runs while no other test's simulator or server does.
    public static var exclusive: Self { Self() }
}
