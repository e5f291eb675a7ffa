import Foundation
import Testing

/// A Swift Testing trait that gives each test case its own empty folder, deleted when the case ends
/// (``withTemporaryDirectory(isolation:prefix:_:)`` as a trait). The test reads it as
/// ``TemporaryDirectoryTrait/current``.
///
/// ```swift
/// @Suite(.temporaryDirectory) struct KeyFileTests {
///     @Test func writesTheKey() throws {
///         let path = try #require(TemporaryDirectoryTrait.current).appendingPathComponent("AuthKey.p8").path
///         …
///     }
/// }
/// ```
public struct TemporaryDirectoryTrait: TestTrait, SuiteTrait, TestScoping {
    /// The folder of the test case running in this task, when it has the trait.
    @TaskLocal public static var current: URL?

    public var isRecursive: Bool { true }

    /// One folder per test case, not one for a whole suite.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { folder in
            try await Self.$current.withValue(folder) { try await function() }
        }
    }
}

extension Trait where Self == TemporaryDirectoryTrait {
    /// Each test case gets its own temporary folder (``TemporaryDirectoryTrait/current``), deleted afterwards.
    public static var temporaryDirectory: Self { Self() }
}
