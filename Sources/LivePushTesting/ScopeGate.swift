import Foundation

/// How many of this library's scopes run at once in one test process. Swift Testing starts every test of
/// a suite run at once; on a small machine hundreds of simulators and servers would then share two
/// cores, and a test's own deadlines (a request timeout, an ``eventually(isolation:timeout:every:sourceLocation:_:)``)
/// would measure the machine instead of the code. ``withSimulator(_:isolation:_:)`` and a
/// ``withServer(_:over:isolation:_:)`` of its own therefore each take a place here first, and wait for
/// one while ``width`` others run; a scope inside another (a server over the test's simulator, a second
/// simulator in the same test) shares its outer scope's place. A test that must not run beside any other
/// scope (it measures time, or loads the machine itself) says so with the ``ExclusiveTrait`` trait,
/// `.exclusive`, which takes every place.
public enum ScopeGate {
    /// Places: twice the processor count, and at least 4 (6 on a 2-core machine).
    public static let width = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)

    /// The places the running task (and the tasks it started) already holds.
    @TaskLocal static var held = 0

    static let places = Places(width)

    /// Runs `body` in `weight` places, taken unless the task already holds some, and given back afterwards.
    package static func run<Result>(
        weight: Int = 1, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async throws -> Result {
        if held > 0 { return try await body() }
        let weight = min(max(weight, 1), width)
        await places.take(weight)
        do {
            let result = try await $held.withValue(weight) { try await body() }
            await places.giveBack(weight)
            return result
        } catch {
            await places.giveBack(weight)
            throw error
        }
    }

    /// A counting semaphore in arrival order: a waiter for every place (an exclusive test) is not passed
    /// by the single-place waiters that come after it.
    actor Places {
        private var free: Int
        private var waiting: [(weight: Int, resume: CheckedContinuation<Void, Never>)] = []

        init(_ count: Int) { free = count }

        func take(_ weight: Int) async {
            if waiting.isEmpty, free >= weight {
                free -= weight
                return
            }
            await withCheckedContinuation { waiting.append((weight, $0)) }
        }

        func giveBack(_ weight: Int) {
            free += weight
            while let first = waiting.first, free >= first.weight {
                free -= first.weight
                waiting.removeFirst()
                first.resume.resume()
            }
        }
    }
}

/// Runs `body` in a place of the ``ScopeGate``, as ``withSimulator(_:isolation:_:)`` does: for a test
/// harness of your own that starts servers or processes, so that it counts among the scopes running at
/// once. Inside another scope it shares that scope's place.
///
/// ```swift
/// func withMyBackend<Result>(_ body: (MyBackend) async throws -> Result) async throws -> Result {
///     try await withScopePlace { try await MyBackend.run(body) }
/// }
/// ```
public func withScopePlace<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async throws -> Result {
    try await ScopeGate.run { try await body() }
}
